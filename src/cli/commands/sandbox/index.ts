import { group, verbs } from '../../command.js';
import { accountsAdd } from './accounts-add.js';
import { cards } from './cards.js';
import { clock } from './clock.js';
import { reset } from './reset.js';
import { start } from './start.js';
import { status } from './status.js';
import { stop } from './stop.js';

export const register = verbs(start, stop, status, reset, cards, clock, group('accounts', 'Accounts of the sandbox', [accountsAdd]));
