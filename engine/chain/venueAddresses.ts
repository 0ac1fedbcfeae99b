// The venue's contract addresses (lowercase). Defaults are the Polygon mainnet deployments of docs/venue.md 2.7;
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
  /** Protocol V2 ledger (docs/venue-v2.md 2): the ERC-1155 of every V2 position, its three modules, its exchange. */
  positionManager: string;
  binaryModule: string;
  negRiskModule: string;
  combinatorialModule: string;
  exchangeV3: string;
  /** Protocol V2 Router: moves a caller's positions through the modules and hands every output back to it. */
  v2Router: string;
  /** Redeems resolved positions for their holders (Redemption.from names the holder). */
  autoRedeemer: string;
  /** NegRisk V2 exchange's first address (docs/venue.md 2.9): indexed for fills as the current one is. */
  negRiskExchangeV2Early: string;
  /**
   * CLOB V2 collateral adapters, both generations (docs/venue.md 2.9): a V2 match that mints or merges splits, merges
   * or converts through them, so they are the stakeholder of that plumbing.
   */
  ctfCollateralAdapter: string;
  ctfCollateralAdapter2: string;
  negRiskCollateralAdapter: string;
  negRiskCollateralAdapter2: string;
  /** Protocol V2 rounds' reporter (ChainlinkReporterModule proxy): RequestReported gives start and end prices. */
  chainlinkReporter: string;
  /** Chainlink price-feed proxies: address -> asset; their aggregators are found over JSON-RPC (feedAggregators). */
  feedProxies: Record<string, string>;
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
  negRiskExchangeV2Early: '0xe2222d002000ba0053cef3375333610f64600036',
  ctfCollateralAdapter: '0xada100874d00e3331d00f2007a9c336a65009718',
  ctfCollateralAdapter2: '0xada100db00ca00073811820692005400218fce1f',
  negRiskCollateralAdapter: '0xada200001000ef00d07553cee7006808f895c6f1',
  negRiskCollateralAdapter2: '0xada2005600dec949baf300f4c6120000bdb6eaab',
  chainlinkReporter: '0xc12ec12e0000326890ca5560def5eb5c22b16814',
  feedProxies: {
    '0xc907e116054ad103354f2d350fd2514433d57f6f': 'BTC',
    '0xf9680d99d6c9589e2a93a78a04a279e509205945': 'ETH',
    '0x10c8264c0935b3b9870013e057f330ff3e9c56dc': 'SOL',
    '0x785ba89291f676b5386652eb12b30cf361020694': 'XRP',
  },
  priceFeeds: {},
};

/** Contracts of CLOB V1 and V2 whose CTF and adapter events are plumbing, never a wallet's (docs/design.md 2). */
export function clobVenueContracts(a: VenueAddresses): string[] {
  return [
    a.ctf,
    a.ctfExchange,
    a.negRiskExchange,
    a.ctfExchangeV2,
    a.negRiskExchangeV2,
    a.negRiskExchangeV2Early,
    a.negRiskAdapter,
    a.wrappedCollateral,
    a.feeModule,
    a.negRiskFeeModule,
    a.negRiskFeeModuleLegacy,
    a.negRiskVault,
    a.ctfCollateralAdapter,
    a.ctfCollateralAdapter2,
    a.negRiskCollateralAdapter,
    a.negRiskCollateralAdapter2,
  ];
}

/** The lowest start block of the indexed Polygon contracts: the CTF's deployment (docs/venue.md 2.7). */
export const POLYGON_START_BLOCK = 4_023_686;
