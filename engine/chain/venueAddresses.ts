// The venue's contract addresses (lowercase). Defaults are the Polygon mainnet deployments of venue.md 2.7;
// a config file may override any of them (see createVenueConfig).

export interface VenueAddresses {
  ctf: string;
  usdc: string;
  fpmmFactory: string;
  ctfExchange: string;
  negRiskExchange: string;
  ctfExchangeV2: string;
  negRiskExchangeV2: string;
  negRiskAdapter: string;
  wrappedCollateral: string;
  feeModule: string;
  negRiskFeeModule: string;
  /** Older neg-risk fee module listed in the adapter's addresses.json; it matches orders the same way. */
  negRiskFeeModuleLegacy: string;
  negRiskVault: string;
  /** Protocol V2 ledger (venue-v2.md 2): the ERC-1155 of every V2 position, its three modules, its exchange. */
  positionManager: string;
  binaryModule: string;
  negRiskModule: string;
  combinatorialModule: string;
  exchangeV3: string;
  /** Protocol V2 Router: moves a caller's positions through the modules and hands every output back to it. */
  v2Router: string;
  /** Redeems resolved positions for their holders (Redemption.from names the holder). */
  autoRedeemer: string;
  /** Chainlink aggregators: address -> asset symbol (BTC, ETH, SOL, XRP). */
  priceFeeds: Record<string, string>;
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The adapter's NO-token sink: first 20 bytes of keccak256("NO_TOKEN_BURN_ADDRESS"). */
export const NO_TOKEN_BURN_ADDRESS = '0xa5ef39c3d3e10d0b270233af41cac69796b12966';

export const POLYGON_ADDRESSES: VenueAddresses = {
  ctf: '0x4d97dcd97ec945f40cf65f87097ace5ea0476045',
  usdc: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
  fpmmFactory: '0x8b9805a2f595b6705e74f7310829f2d299d21522',
  ctfExchange: '0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e',
  negRiskExchange: '0xc5d563a36ae78145c45a50134d48a1215220f80a',
  ctfExchangeV2: '0xe111180000d2663c0091e4f400237545b87b996b',
  negRiskExchangeV2: '0xe2222d279d744050d28e00520010520000310f59',
  negRiskAdapter: '0xd91e80cf2e7be2e162c6513ced06f1dd0da35296',
  wrappedCollateral: '0x3a3bd7bb9528e159577f7c2e685cc81a765002e2',
  feeModule: '0xe3f18acc55091e2c48d883fc8c8413319d4ab7b0',
  negRiskFeeModule: '0xb768891e3130f6df18214ac804d4db76c2c37730',
  negRiskFeeModuleLegacy: '0x78769d50be1763ed1ca0d5e878d93f05aabff29e',
  negRiskVault: '0x7f67327e88c258932d7d8f72950be0d46975e11d',
  positionManager: '0x006f54f7f9a22e0000cc2ab60031000000ae9fef',
  binaryModule: '0x1000008dd9001b968442c1000017eae6e0da00ba',
  negRiskModule: '0x200000900045e3b6259600682756002200028933',
  combinatorialModule: '0x30000034706c7d8e12009dab006be20000c031a8',
  exchangeV3: '0xe3333700ca9d93003f00f0f71f8515005f6c00aa',
  v2Router: '0x12121212006e4cd160d18e3f00711da5c3372600',
  autoRedeemer: '0xa1200000d0002264c9a1698e001292d00e1b00af',
  priceFeeds: {},
};

/** The lowest start block of the indexed Polygon contracts: the CTF's deployment (venue.md 2.7). */
export const POLYGON_START_BLOCK = 4_023_686;
