// `scpctl apply`: its declaration; the code loads only when it runs.
import { EXIT_CODE, PLAN_ONLY, WAIT, YES, type CommandSpec } from '../command-spec.js';

export const applyCommand: CommandSpec = {
  name: 'apply',
  summary: 'make many profiles equal to a manifest (YAML or JSON): plan, then one modify per profile',
  group: 'Bucket lists:',
  options: [
    { flags: '-f, --file <manifest>', description: 'the manifest (- is standard input)' },
    { flags: '--allow-outside-files', description: "read files: paths outside the manifest's folder (absolute, .., or through a symlink)" },
    PLAN_ONLY,
    EXIT_CODE,
    { flags: '--markdown', description: 'the plan as a Markdown table with the names (for a pull-request comment)' },
    { flags: '--save-plan <file>', description: "with --dry-run: save the plan, with each live list's fingerprint" },
    { flags: '--plan <file>', description: 'apply a saved plan; profiles changed since it was made are left alone (exit 9)' },
    WAIT,
    YES,
    { flags: '--export <profile...>', description: 'print a manifest of these live lists (apply -f of it right after changes nothing)' },
    { flags: '--out <file>', description: 'with --export: write the manifest to FILE (atomically), not stdout' },
    { flags: '--files <dir>', description: 'with --export and --out: one list file per profile under DIR' },
  ],
  examples: [
    'scpctl apply -f scpctl.yaml --dry-run',
    'scpctl apply -f scpctl.yaml --dry-run --markdown --save-plan plan.json',
    'scpctl apply --plan plan.json --wait 300',
    'scpctl apply --export finance legal > scpctl.yaml',
    'scpctl apply --export finance legal -o json > scpctl.json',
    'scpctl apply --export finance legal --out scpctl.yaml --files lists',
  ],
  // `apply scpctl.yaml`: the manifest named without -f, which commander would call "too many arguments".
  extraArguments: (extra) => ({
    message: `apply reads the manifest from -f FILE, not from an argument: ${extra.map((word) => JSON.stringify(word)).join(' ')}`,
    hint: `Read it with -f: scpctl apply -f ${extra[0]}${extra.length > 1 ? ' (one manifest per apply)' : ''}; a saved plan is --plan FILE.`,
  }),
  output: { kind: 'plan', terminal: 'text', piped: 'text', alternate: { option: '--export', kind: 'manifest', terminal: 'yaml', piped: 'yaml' } },
  fanOut: { changes: true, oneTenant: ['--save-plan', '--plan', '--export'] },
  load: async () => (await import('./index.js')).apply,
};
