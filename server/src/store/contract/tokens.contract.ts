/**
 * The RunStore contract, TokenRecords part — CI tokens: by digest only; a write's token is re-checked at commit (hence runs and fleet plans).
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidId, newId } from '../ids.ts';
import { fleetPlanInsert, fleetPlanOfInputs } from '../testing/fleet-inputs.ts';
import { smallRunInput, unwrap } from '../testing/run-inputs.ts';
import {
  type FleetPlanRecords,
  type RunRecords,
  StoreInputError,
  type TokenRecords,
  TokenRevokedError,
  type SeriesRecords,
} from '../run-store.ts';
import { type ContractHarness, tokenDigest } from './harness.ts';

export function describeTokenRecordsContract(
  harness: ContractHarness<TokenRecords & RunRecords & FleetPlanRecords & SeriesRecords>,
): void {
  const { setup, clock } = harness;

  describe('TokenRecords', () => {
    describe('tokens', () => {
      it('registers a token by digest; lookups and lists never expose the digest', async () => {
        const { store } = await setup();
        expect(await store.countActiveTokens()).toBe(0);
        const digest = tokenDigest();
        const created = unwrap(await store.createToken({ name: 'ci-main', tokenSha256: digest }));
        expect(created).toEqual({
          id: created.id,
          name: 'ci-main',
          createdAt: clock.now(),
          revokedAt: null,
          lastUsedAt: null,
        });
        expect(isValidId(created.id)).toBe(true);
        expect(await store.countActiveTokens()).toBe(1);
        expect(await store.findActiveTokenByHash(digest)).toEqual({ ...created, tokenSha256: digest });
        const list = await store.listTokens();
        expect(list).toEqual([created]);
        expect(JSON.stringify(list)).not.toContain(digest);
        expect(await store.findActiveTokenByHash(tokenDigest())).toBeNull();
        expect(await store.findActiveTokenByHash('not-a-digest')).toBeNull();
        expect(await store.findActiveTokenByHash(digest.toUpperCase())).toBeNull();
      });

      it('refuses a second active token with the same name or the same digest', async () => {
        const { store } = await setup();
        const digest = tokenDigest();
        unwrap(await store.createToken({ name: 'ci', tokenSha256: digest }));
        expect(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() })).toEqual({
          ok: false,
          error: { code: 'token_name_taken', message: expect.any(String), path: 'name' },
        });
        expect(await store.createToken({ name: 'ci-2', tokenSha256: digest })).toEqual({
          ok: false,
          error: { code: 'token_hash_taken', message: expect.any(String), path: 'tokenSha256' },
        });
        expect(await store.countActiveTokens()).toBe(1);
      });

      it('revokes by id or by name; a revoked token no longer authenticates and its name is free', async () => {
        const { store } = await setup();
        const first = tokenDigest();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: first }));
        clock.advance(1_000);
        expect(unwrap(await store.revokeToken({ id: token.id }))).toEqual({
          ...token,
          revokedAt: clock.now(),
        });
        expect(await store.findActiveTokenByHash(first)).toBeNull();
        expect(await store.countActiveTokens()).toBe(0);
        expect(await store.revokeToken({ id: token.id })).toMatchObject({
          ok: false,
          error: { code: 'token_not_found' },
        });

        const second = tokenDigest();
        const again = unwrap(await store.createToken({ name: 'ci', tokenSha256: second }));
        expect(await store.countActiveTokens()).toBe(1);
        expect(unwrap(await store.revokeToken({ name: 'ci' })).id).toBe(again.id);
        expect(await store.findActiveTokenByHash(second)).toBeNull();
        expect((await store.listTokens()).map((t) => [t.id, t.revokedAt !== null])).toEqual([
          [token.id, true],
          [again.id, true],
        ]);
        // A revoked digest cannot be registered again: that token is burnt.
        expect(await store.createToken({ name: 'ci', tokenSha256: first })).toMatchObject({
          ok: false,
          error: { code: 'token_hash_taken' },
        });
      });

      it('an upload’s token is re-checked at commit: revoked meanwhile (from another connection), nothing is stored', async () => {
        const { store, reopen } = await setup();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        const before = await store.insertRun({ ...smallRunInput({ series: 'db' }), tokenId: token.id });
        expect(before.created).toBe(true);
        // `blockwise token revoke` runs in another process, on its own connection.
        const cli = await reopen();
        unwrap(await cli.revokeToken({ name: 'ci' }));
        const input = { ...smallRunInput({ series: 'db' }), tokenId: token.id };
        await expect(store.insertRun(input)).rejects.toBeInstanceOf(TokenRevokedError);
        // Also an identical retry of an upload stored earlier: the token no longer writes.
        await expect(
          store.insertRun({ ...input, idempotencyKey: before.run.idempotencyKey }),
        ).rejects.toBeInstanceOf(TokenRevokedError);
        const page = unwrap(await store.listRuns({ limit: 10 }));
        expect(page.items.map((r) => r.id)).toEqual([before.run.id]);
        expect(unwrap(await store.listSeries()).items).toMatchObject([{ series: 'db', runCount: 1 }]);
        // An unknown token id is no better; no token at all is an anonymous write.
        await expect(store.insertRun({ ...smallRunInput(), tokenId: newId() })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        expect((await store.insertRun({ ...input, tokenId: null })).created).toBe(true);
      });

      it('a fleet plan’s token is re-checked at commit: revoked meanwhile (from another connection), nothing is stored', async () => {
        const { store, reopen, sql } = await setup();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        const before = await store.insertFleetPlan({ ...fleetPlanInsert(), tokenId: token.id });
        expect(before.created).toBe(true);
        // `blockwise token revoke` runs in another process while the next plan is computed.
        const cli = await reopen();
        unwrap(await cli.revokeToken({ name: 'ci' }));
        const other = fleetPlanInsert(fleetPlanOfInputs({ headroom: 0.5 }));
        await expect(store.insertFleetPlan({ ...other, tokenId: token.id })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        // Also an identical retry of a plan stored earlier: the token no longer writes.
        await expect(
          store.insertFleetPlan({ ...fleetPlanInsert(), tokenId: token.id }),
        ).rejects.toBeInstanceOf(TokenRevokedError);
        expect(await sql('SELECT id FROM fleet_plans')).toEqual([{ id: before.plan.id }]);
        // An unknown token id is no better; no token at all is an anonymous write.
        await expect(store.insertFleetPlan({ ...other, tokenId: newId() })).rejects.toBeInstanceOf(
          TokenRevokedError,
        );
        expect((await store.insertFleetPlan({ ...other, tokenId: null })).created).toBe(true);
        expect(await sql('SELECT id FROM fleet_plans')).toHaveLength(2);
      });

      it('has held a token from the first registration on, also after every token is revoked', async () => {
        const { store } = await setup();
        expect(await store.hasHeldToken()).toBe(false);
        unwrap(await store.createToken({ name: 'ci', tokenSha256: tokenDigest() }));
        expect(await store.hasHeldToken()).toBe(true);
        unwrap(await store.revokeToken({ name: 'ci' }));
        expect(await store.countActiveTokens()).toBe(0);
        expect(await store.hasHeldToken()).toBe(true);
      });

      it.each([[{ id: newId() }], [{ id: 'malformed' }], [{ name: 'nobody' }], [{ name: '' }]])(
        'revoking %j is token_not_found',
        async (ref) => {
          const { store } = await setup();
          expect(await store.revokeToken(ref)).toMatchObject({
            ok: false,
            error: { code: 'token_not_found' },
          });
        },
      );

      it('records last use at most once a minute', async () => {
        const { store } = await setup();
        const digest = tokenDigest();
        const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: digest }));
        const start = clock.now();
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start);
        clock.advance(59_999);
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start);
        clock.advance(1);
        await store.markTokenUsed(token.id);
        expect((await store.findActiveTokenByHash(digest))?.lastUsedAt).toBe(start + 60_000);
        await expect(store.markTokenUsed('malformed')).resolves.toBeUndefined();
      });

      it('accepts only a lowercase hex SHA-256, never something that looks like a plaintext token', async () => {
        const { store } = await setup();
        for (const tokenSha256 of [
          `bw_${randomBytes(32).toString('base64url')}`,
          'abc',
          tokenDigest().toUpperCase(),
        ]) {
          await expect(store.createToken({ name: 'ci', tokenSha256 })).rejects.toBeInstanceOf(
            StoreInputError,
          );
        }
        expect(await store.listTokens()).toEqual([]);
      });
    });
  });
}
