import { verbs } from '../../command.js';
import { simulate } from './simulate.js';

export const register = verbs(simulate);
