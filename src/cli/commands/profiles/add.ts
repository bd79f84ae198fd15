import { checkProfile, type Profile, profileFieldProblem, PROFILE_NAME, PROFILE_NAME_RULE, SANDBOX_PROFILE } from '../../../config/profile.js';
import { arg, defineCommand, flag } from '../../command.js';
import { UsageError } from '../../errors.js';
import { profileFields, shownProfile } from './view.js';

export const add = defineCommand({
  name: 'add',
  description: 'Add or replace a profile (prompts at a TTY for what is missing)',
  args: { name: arg.optional('[name]', 'Profile name') },
  flags: {
    baseUrl: flag.string('--base-url <url>', 'Base URL of the service, e.g. https://api.example.com', { prompted: true }),
    account: flag.string('--account <id>', 'Merchant account id', { prompted: true }),
    apiKey: flag.string('--api-key <key>', 'API key (prefer --api-key-stdin: flags end up in shell history)'),
    apiKeyStdin: flag.bool('--api-key-stdin', 'Read the API key from stdin'),
    headerPrefix: flag.string('--header-prefix <prefix>', 'The service\'s auth header prefix', { default: 'pay' }),
    default: flag.bool('--default', 'Make it the default profile'),
  },
  examples: [
    'pay profiles add staging            # prompts for URL, account and key',
    'printf %s "$KEY" | pay profiles add ci --base-url https://api.example.com --account acct_1 --api-key-stdin --default',
  ],
  fields: profileFields,
  async run(options, f) {
    const io = f.io;
    const name = options.name ?? (await io.ask('<name>', 'Profile name', { validate: (v) => (v === SANDBOX_PROFILE ? `It${SANDBOX_NAME_TAKEN.slice(2)}.` : PROFILE_NAME.test(v) ? true : 'Letters, digits, - and _.') }));
    if (!PROFILE_NAME.test(name)) throw new UsageError(`Invalid profile name '${name}': ${PROFILE_NAME_RULE}.`);
    // pay sandbox start rewrites that profile as its own: a service's profile by the name would be taken over, its key kept.
    if (name === SANDBOX_PROFILE) throw new UsageError(`Invalid profile name '${name}': ${SANDBOX_NAME_TAKEN}, e.g. pay profiles add staging.`);
    if (options.apiKey !== undefined && options.apiKeyStdin) throw new UsageError('Use one of --api-key and --api-key-stdin.');
    // Flags given are checked before anything is asked; each answer as it is given, by the rule the profile is saved under.
    for (const [field, value] of [['base_url', options.baseUrl], ['account', options.account]] as const) {
      const problem = value === undefined ? undefined : profileFieldProblem(field, value);
      if (problem) throw new UsageError(`Invalid ${flagOf(field)}: ${problem}.`);
    }
    const baseUrl = options.baseUrl ?? (await io.ask('--base-url', 'Base URL of the service', { validate: answerRule('base_url') }));
    const account = options.account ?? (await io.ask('--account', 'Merchant account id', { validate: answerRule('account') }));
    const apiKey = options.apiKey ?? (options.apiKeyStdin ? await io.readKeyFromStdin(`pay profiles add ${name}`) : await io.askSecret('--api-key-stdin', 'API key'));
    const checked = checkProfile({ base_url: baseUrl, account, api_key: apiKey, header_prefix: options.headerPrefix });
    if ('problem' in checked) {
      const { field, message, missing } = checked.problem;
      // The key's flag is the one it came by.
      const given = field === 'api_key' && options.apiKeyStdin ? '--api-key-stdin' : flagOf(field);
      throw new UsageError(missing ? `Missing ${given}: it is required.` : `Invalid ${given}: ${message}.`);
    }
    const store = await f.profiles();
    // Replacing a profile of the same account keeps its listen secret (the app's stays valid).
    const { keptListenIdentity } = await import('../../../webhooks/identity.js');
    const profile = { ...checked.profile, ...(await keptListenIdentity(store.dir, name, store.get(name), checked.profile.account)) };
    await store.set(name, profile, options.default || 'if-none');
    const shown = shownProfile(name, profile, store.defaultName() === name);
    if (io.json) return io.printJSON(shown);
    io.success(`Saved profile '${name}' (${profile.base_url}, key ${shown.api_key})${shown.default ? ', the default' : ''}.`);
  },
});

const SANDBOX_NAME_TAKEN = `it is the local sandbox's profile, which pay sandbox start writes; name this one otherwise`;

const flagOf = (field: keyof Profile) => (field === 'api_key' ? '--api-key' : `--${field.replace(/_/g, '-')}`);

/** A prompt's answer checked by the field's rule: true, or the rule as a sentence. */
const answerRule = (field: keyof Profile) => (text: string) => {
  const problem = profileFieldProblem(field, text.trim());
  return problem === undefined ? true : `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
};
