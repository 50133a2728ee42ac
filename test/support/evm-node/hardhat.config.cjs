// Hardhat's in-process EVM node for tests (test/support/evm-node.ts starts it on loopback).
// Chain id 43112 is the Avalanche local-network C-Chain id; the mining is automatic (one block per tx)
// unless a test turns interval mining on through `evm_setIntervalMining`.
module.exports = {
  networks: { hardhat: { chainId: 43112, hardfork: 'cancun' } },
};
