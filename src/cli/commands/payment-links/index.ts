import { verbs } from '../../command.js';
import { create } from './create.js';

export const register = verbs(create);
