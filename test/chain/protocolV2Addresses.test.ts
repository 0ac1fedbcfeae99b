// The Protocol V2 contracts' default addresses are docs/venue-v2.md 2's deployments, a config file overrides each, and
// every one of them is a venue contract of the fold (never a wallet).
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVenueAddresses } from '../../engine/chain/loadVenueAddresses.js';
import { protocolV2Contracts } from '../../engine/chain/protocolV2Contracts.js';
import { POLYGON_ADDRESSES } from '../../engine/chain/venueAddresses.js';

/** docs/venue-v2.md 2, as written there (checksummed). */
const DOCUMENTED = {
  positionManager: '0x006F54F7f9A22e0000CC2AB60031000000ae9fEF',
  binaryModule: '0x1000008dD9001B968442c1000017eaE6E0dA00Ba',
  negRiskModule: '0x200000900045e3B6259600682756002200028933',
  combinatorialModule: '0x30000034706C7d8e12009DAB006Be20000c031A8',
  exchangeV3: '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa',
  v2Router: '0x12121212006e4CD160D18e3f00711DA5c3372600',
  autoRedeemer: '0xa1200000d0002264C9a1698e001292D00E1b00af',
};

t.test('the defaults are the documented deployments, lowercase', async (t) => {
  for (const [name, address] of Object.entries(DOCUMENTED))
    t.equal(POLYGON_ADDRESSES[name as keyof typeof DOCUMENTED], address.toLowerCase(), name);
  t.same(
    protocolV2Contracts(POLYGON_ADDRESSES).sort(),
    Object.values(DOCUMENTED)
      .map((a) => a.toLowerCase())
      .sort(),
  );
});

t.test('config.json overrides each address', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-v2-addresses-'));
  const path = join(dir, 'config.json');
  const overrides = Object.fromEntries(
    Object.keys(DOCUMENTED).map((name, i) => [name, '0x' + (i + 1).toString(16).padStart(2, '0').repeat(20)]),
  );
  writeFileSync(path, JSON.stringify({ addresses: { ...overrides, exchangeV3: '0x' + 'AB'.repeat(20) } }));
  const addresses = loadVenueAddresses(path);
  t.equal(addresses.exchangeV3, '0x' + 'ab'.repeat(20));
  t.equal(addresses.positionManager, overrides.positionManager);
  t.ok(protocolV2Contracts(addresses).includes(overrides.autoRedeemer!));
  t.equal(addresses.ctf, POLYGON_ADDRESSES.ctf);
});
