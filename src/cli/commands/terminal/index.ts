import { verbs } from '../../command.js';
import * as simulate from './simulate.js';

export const register = verbs(simulate.define);
