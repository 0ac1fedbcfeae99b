import t from 'tap';
import { defaultWalletWorkers } from '../../engine/fold/defaultWalletWorkers.js';
import { MAX_DEFAULT_WALLET_WORKERS } from '../../engine/limits.js';

t.test('the cores the main thread and the capture reader leave, at least one', async (t) => {
  t.equal(defaultWalletWorkers(1), 1);
  t.equal(defaultWalletWorkers(2), 1);
  t.equal(defaultWalletWorkers(3), 1);
  t.equal(defaultWalletWorkers(4), 2);
  t.equal(defaultWalletWorkers(5), 3);
});

t.test('at most MAX_DEFAULT_WALLET_WORKERS however many cores', async (t) => {
  t.equal(defaultWalletWorkers(MAX_DEFAULT_WALLET_WORKERS + 2), MAX_DEFAULT_WALLET_WORKERS);
  t.equal(defaultWalletWorkers(64), MAX_DEFAULT_WALLET_WORKERS);
});

t.test('this machine gets a count in range', async (t) => {
  const count = defaultWalletWorkers();
  t.ok(count >= 1 && count <= MAX_DEFAULT_WALLET_WORKERS, `${count} workers`);
});
