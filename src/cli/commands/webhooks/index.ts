import { verbs } from '../../command.js';
import { endpoints } from './endpoints.js';
import { listen } from './listen.js';
import { rotateSecret } from './rotate-secret.js';

export const register = verbs(listen, rotateSecret, endpoints);
