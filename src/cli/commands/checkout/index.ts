import { verbs } from '../../command.js';
import { create } from './create.js';
import { get } from './get.js';

export const register = verbs(create, get);
