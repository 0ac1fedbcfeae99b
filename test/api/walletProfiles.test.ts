// Wallet profiles over HTTP (spec 4.11): off until a source is loaded, then every wallet asked answered with its
// profile or null, malformed entries left out, at most 300 wallets; an empty source still turns them on.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../cli/commands/serveCommand.js';
import { ERROR } from '../../api/errorTexts.js';
import { WalletProfilesAnswer } from '../../api/schemas/answerSchemas.js';
import { createDemoData } from '../fixtures/demoData.js';
import { answerProblems } from '../fixtures/checkAnswer.js';
import { apiClient } from '../fixtures/apiClient.js';
import { runTally } from '../fixtures/runTally.js';

const { data, key, inputs } = await createDemoData(600, 4);
const profilesFile = join(inputs.dir, 'inputs', 'profiles.json');
const listed = JSON.parse(readFileSync(profilesFile, 'utf8')) as Array<{
  proxyWallet: string;
  name: string;
  pseudonym: string;
  profileImage?: string;
}>;
const server = await startServer({ data, host: '127.0.0.1', port: 0 });
t.teardown(() => server.closeAll());
const get = apiClient(server.port, key);
const nobody = '0x' + '7'.repeat(40);

t.test('error: no profile source loaded: 503 wallet profiles are off', async (t) => {
  const answer = await get(`/v1/wallets/profiles?wallets=${nobody}`);
  t.same([answer.status, answer.body], [503, { error: ERROR.profilesOff }]);
});

t.test('default: a profile, or null when the source has none; malformed entries left out', async (t) => {
  t.equal(runTally(['profiles', '--data', data, '--file', profilesFile]).code, 0);
  const [first, second] = listed as [(typeof listed)[number], (typeof listed)[number]];
  const answer = await get(
    `/v1/wallets/profiles?wallets=${first.proxyWallet.toUpperCase().replace('0X', '0x')},nope,${nobody},${second.proxyWallet}`,
  );
  t.equal(answer.status, 200);
  t.same(answerProblems(WalletProfilesAnswer, answer.body), [], 'the answer matches its schema');
  t.same(answer.body.profiles, {
    [first.proxyWallet.toLowerCase()]: {
      name: first.name,
      pseudonym: first.pseudonym,
      image: first.profileImage || null,
    },
    [nobody]: null,
    [second.proxyWallet.toLowerCase()]: {
      name: second.name,
      pseudonym: second.pseudonym,
      image: second.profileImage || null,
    },
  });
  const many = Array.from({ length: 350 }, (_, i) => '0x' + i.toString(16).padStart(40, '0'));
  t.equal(
    Object.keys((await get(`/v1/wallets/profiles?wallets=${many.join(',')}`)).body.profiles).length,
    300,
    'the first 300',
  );
  const none = await get('/v1/wallets/profiles?wallets=nope');
  t.same([none.status, none.body], [400, { error: ERROR.badWalletList }]);
});

t.test('behavior: an empty source turns profiles on, with no profile', async (t) => {
  const empty = join(inputs.dir, 'no-profiles.json');
  writeFileSync(empty, '[]');
  const other = await createDemoData(100, 4);
  t.equal(runTally(['profiles', '--data', other.data, '--file', empty]).code, 0);
  const otherServer = await startServer({ data: other.data, host: '127.0.0.1', port: 0 });
  try {
    const answer = await apiClient(otherServer.port, other.key)(`/v1/wallets/profiles?wallets=${nobody}`);
    t.same([answer.status, answer.body], [200, { profiles: { [nobody]: null } }]);
  } finally {
    await otherServer.closeAll();
  }
});
