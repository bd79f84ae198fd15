import { defineCommand } from '../../command.js';
import { profileFields, shownProfile } from './view.js';

export const list = defineCommand({
  name: 'list',
  description: 'List profiles (keys masked)',
  examples: ['pay profiles list', 'pay profiles list --json'],
  fields: profileFields,
  async run(_, f) {
    const store = await f.profiles();
    const rows = store.names().map((n) => shownProfile(n, store.get(n)!, store.defaultName() === n));
    f.io.printList(rows, [
      { header: '', value: (p) => (p.default ? '*' : '') },
      { header: 'NAME', value: (p) => p.name },
      { header: 'BASE URL', value: (p) => p.base_url },
      { header: 'ACCOUNT', value: (p) => p.account },
      { header: 'API KEY', value: (p) => p.api_key },
    ]);
  },
});
