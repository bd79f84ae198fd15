import { verbs } from '../../command.js';
import { add } from './add.js';
import { list } from './list.js';
import { remove } from './remove.js';
import { show } from './show.js';
import { use } from './use.js';

export const register = verbs(add, list, use, show, remove);
