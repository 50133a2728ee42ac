import type { ValidatorRecord } from '../world/index.js';
import { type GorillaService, method, NodeRpcError } from './gorilla.js';
import type { NodeState } from './node-state.js';

/**
 * `/ext/info` (service `info`, avalanchego api/info/service.go): the simulated node is a mainnet
 * validator (`world.selfNodeId`); its peers are the world's other active mainnet validators.
 * Numbers the node encodes with avalanchego's json.Uint64/Uint32/Float64 are JSON strings.
 */

export const NODE_VERSION = '1.14.2';
export const GIT_COMMIT = '1cf1fc3d1711a09fde7319d2b48609c8cba93680';

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** Mainnet upgrade schedule (upgrade/upgrade.go). */
export const MAINNET_UPGRADES = {
  apricotPhase1Time: '2021-03-31T14:00:00Z',
  apricotPhase2Time: '2021-05-10T11:00:00Z',
  apricotPhase3Time: '2021-08-24T14:00:00Z',
  apricotPhase4Time: '2021-09-22T21:00:00Z',
  apricotPhase4MinPChainHeight: 793005,
  apricotPhase5Time: '2021-12-02T18:00:00Z',
  apricotPhasePre6Time: '2022-09-05T01:30:00Z',
  apricotPhase6Time: '2022-09-06T20:00:00Z',
  apricotPhasePost6Time: '2022-09-07T03:00:00Z',
  banffTime: '2022-10-18T16:00:00Z',
  cortinaTime: '2023-04-25T15:00:00Z',
  cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
  durangoTime: '2024-03-06T16:00:00Z',
  etnaTime: '2024-12-16T17:00:00Z',
  fortunaTime: '2025-04-08T15:00:00Z',
  graniteTime: '2025-11-19T16:00:00Z',
  graniteEpochDuration: 300_000_000_000,
  heliconTime: '9999-12-01T00:00:00Z',
};

const VMS: Record<string, string[]> = {
  jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
  mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
  rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
};
const FXS: Record<string, string> = {
  qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
  rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
  spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
};

function selfRecord(state: NodeState): ValidatorRecord {
  const periods = state.net.validatorsByNode.get(state.world.selfNodeId) ?? [];
  return periods.find((v) => v.status === 'active') ?? periods.at(-1)!;
}

/** The node's peers: every other node with an active primary-network validation. */
function peers(state: NodeState) {
  const now = state.world.now;
  const seen = new Set<string>([state.world.selfNodeId]);
  const out = [];
  for (const v of state.net.validators) {
    if (v.status !== 'active' || seen.has(v.nodeId)) continue;
    seen.add(v.nodeId);
    const lag = (v.txHash.charCodeAt(3) % 9) + 1;
    out.push({
      ip: v.ip,
      publicIP: v.ip,
      nodeID: v.nodeId,
      version: v.avalancheGoVersion,
      upgradeTime: 0,
      lastSent: iso(now),
      lastReceived: iso(now - lag),
      observedUptime: String(Math.floor(v.uptime)),
      trackedSubnets: [] as string[],
      supportedACPs: [] as number[],
      objectedACPs: [] as number[],
      benched: [] as string[],
    });
  }
  return out;
}

export function infoService(state: NodeState): GorillaService {
  const net = state.net.info;
  let peerList: ReturnType<typeof peers> | undefined;
  return {
    name: 'info',
    methods: {
      acps: method({}, () => ({ acps: {} })),
      isBootstrapped: method({ chain: 'string' }, ({ chain }) => {
        if (chain === '') throw new NodeRpcError("argument 'chain' not given");
        if (!state.chainOf(chain))
          throw new NodeRpcError(`there is no chain with alias/ID '${chain}'`);
        return { isBootstrapped: true };
      }),
      getBlockchainID: method({ alias: 'string' }, ({ alias }) => ({
        blockchainID: state.lookupChain(alias),
      })),
      getNetworkID: method({}, () => ({ networkID: String(net.networkId) })),
      getNetworkName: method({}, () => ({ networkName: net.name })),
      getNodeID: method({}, () => {
        const bls = selfRecord(state).bls;
        return {
          nodeID: state.world.selfNodeId,
          nodePOP: { publicKey: bls.publicKey, proofOfPossession: bls.proofOfPossession },
        };
      }),
      getNodeIP: method({}, () => ({ ip: selfRecord(state).ip })),
      getNodeVersion: method({}, () => ({
        version: `avalanchego/${NODE_VERSION}`,
        databaseVersion: 'v1.4.5',
        rpcProtocolVersion: '45',
        gitCommit: GIT_COMMIT,
        vmVersions: {
          avm: `v${NODE_VERSION}`,
          evm: `v${NODE_VERSION}`,
          platform: `v${NODE_VERSION}`,
        },
      })),
      getTxFee: method({}, () => ({
        txFee: '1000000',
        createAssetTxFee: '10000000',
        createSubnetTxFee: '1000000000',
        transformSubnetTxFee: '10000000000',
        createBlockchainTxFee: '1000000000',
        addPrimaryNetworkValidatorFee: '0',
        addPrimaryNetworkDelegatorFee: '0',
        addSubnetValidatorFee: '1000000',
        addSubnetDelegatorFee: '1000000',
      })),
      getVMs: method({}, () => ({ vms: VMS, fxs: FXS })),
      peers: method({ nodeIDs: 'nodeId[]' }, ({ nodeIDs }) => {
        peerList ??= peers(state);
        let list = peerList;
        if (nodeIDs.length > 0) list = list.filter((p) => nodeIDs.includes(p.nodeID));
        return { numPeers: String(list.length), peers: list };
      }),
      uptime: method({}, () => {
        const up = selfRecord(state).uptime;
        return {
          rewardingStakePercentage: Math.min(100, up + 1.5).toFixed(4),
          weightedAveragePercentage: up.toFixed(4),
        };
      }),
      upgrades: method({}, () => MAINNET_UPGRADES),
    },
  };
}
