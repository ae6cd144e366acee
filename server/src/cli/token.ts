import { generateToken, hashToken } from '../http/auth.ts';
import { openStore } from '../store/open-store.ts';
import { EXIT, UsageError, parseFlags, type Command } from './io.ts';

const usage = `Usage: blockwise token create --name NAME [--db sqlite:PATH | postgres://…]
       blockwise token list   [--db …]
       blockwise token revoke (--name NAME | --id ID) [--db …]

  CI upload tokens. From the first one created on, uploads and run listings need
  Authorization: Bearer <token> — at once, on every replica, and still after every token is
  revoked (unless the server runs with --auth open). Share links stay public. The token is
  printed once and only its SHA-256 is stored.`;

export const tokenCommand: Command = {
  summary: 'Create, list and revoke CI upload tokens.',
  usage,
  async run(argv, io) {
    const [action, ...rest] = argv;
    const { values } = parseFlags(
      rest,
      { name: { type: 'string' }, id: { type: 'string' }, db: { type: 'string' }, json: { type: 'boolean' } },
      false,
    );
    if (!['create', 'list', 'revoke'].includes(action ?? ''))
      throw new UsageError('expected create, list or revoke');
    const store = await openStore(values.db ?? io.env.DATABASE_URL);
    try {
      if (action === 'create') {
        const name = values.name?.trim();
        if (!name || !/^[A-Za-z0-9._-]{1,64}$/.test(name))
          throw new UsageError('--name: expected 1–64 letters, digits or . _ -', '--name');
        const token = generateToken();
        const r = await store.createToken({ name, tokenSha256: hashToken(token) });
        if (!r.ok) {
          io.stderr(`blockwise token: ${r.error.message}\n`);
          return EXIT.failed;
        }
        io.stdout(values.json ? `${JSON.stringify({ id: r.value.id, name, token })}\n` : `${token}\n`);
        if (!values.json)
          io.stderr(
            `Token "${name}" created. It is shown only this once: store it as a CI secret (e.g. BLOCKWISE_TOKEN).\n`,
          );
        return EXIT.ok;
      }
      if (action === 'list') {
        const tokens = await store.listTokens();
        if (values.json) io.stdout(`${JSON.stringify({ tokens })}\n`);
        else
          for (const t of tokens)
            io.stdout(
              `${t.id}  ${t.name.padEnd(20)} created ${new Date(t.createdAt).toISOString()}${t.revokedAt ? `  revoked ${new Date(t.revokedAt).toISOString()}` : ''}${t.lastUsedAt ? `  last used ${new Date(t.lastUsedAt).toISOString()}` : ''}\n`,
            );
        return EXIT.ok;
      }
      if (!values.name && !values.id) throw new UsageError('revoke needs --name or --id', '--name');
      const r = await store.revokeToken(values.id ? { id: values.id } : { name: values.name! });
      if (!r.ok) {
        io.stderr(`blockwise token: ${r.error.message}\n`);
        return EXIT.failed;
      }
      io.stdout(`revoked ${r.value.name} (${r.value.id})\n`);
      return EXIT.ok;
    } finally {
      await store.close();
    }
  },
};
