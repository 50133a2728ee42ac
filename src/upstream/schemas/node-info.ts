import { z } from 'zod';
import { decimalString, nodeIdString, u32, u64 } from './node-common.js';

/**
 * Results of the info API (`/ext/info`, gorilla service `info`), after avalanchego api/info/service.go and
 * the node's info examples (SPEC_DIR `examples/node/info/`). Unknown fields are dropped; a missing required one fails the parse.
 */

export const getNodeIdResult = z.object({
  nodeID: nodeIdString,
  nodePOP: z.object({ publicKey: z.string(), proofOfPossession: z.string() }).nullable().optional(),
});
export type NodeIdResult = z.infer<typeof getNodeIdResult>;

export const getNodeIpResult = z.object({ ip: z.string() });

/** vmVersions is a map VM name → version; turned into a list so the schema can type it. */
export const getNodeVersionResult = z
  .object({
    version: z.string(),
    databaseVersion: z.string(),
    rpcProtocolVersion: u32,
    gitCommit: z.string(),
    vmVersions: z.record(z.string(), z.string()),
  })
  .transform((v) => ({
    ...v,
    vmVersions: Object.entries(v.vmVersions).map(([vm, version]) => ({ vm, version })),
  }));
export type NodeVersion = z.output<typeof getNodeVersionResult>;

export const getNetworkIdResult = z.object({ networkID: u32 });
export const getNetworkNameResult = z.object({ networkName: z.string() });
export const isBootstrappedResult = z.object({ isBootstrapped: z.boolean() });
export const getBlockchainIdResult = z.object({ blockchainID: z.string() });

export const peerInfo = z.object({
  ip: z.string(),
  publicIP: z.string().optional(),
  nodeID: nodeIdString,
  version: z.string(),
  lastSent: z.string(),
  lastReceived: z.string(),
  observedUptime: u32.optional(),
  trackedSubnets: z
    .array(z.string())
    .nullable()
    .optional()
    .transform((v) => v ?? []),
  supportedACPs: z
    .array(u32)
    .nullable()
    .optional()
    .transform((v) => v ?? []),
  objectedACPs: z
    .array(u32)
    .nullable()
    .optional()
    .transform((v) => v ?? []),
  benched: z
    .array(z.string())
    .nullable()
    .optional()
    .transform((v) => v ?? []),
});
export type PeerInfo = z.output<typeof peerInfo>;

export const peersResult = z.object({
  numPeers: u32,
  peers: z
    .array(peerInfo)
    .nullable()
    .transform((v) => v ?? []),
});
export type PeersResult = z.output<typeof peersResult>;

export const uptimeResult = z.object({
  rewardingStakePercentage: decimalString,
  weightedAveragePercentage: decimalString,
});
export type UptimeResult = z.output<typeof uptimeResult>;

/** ACP preferences keyed by proposal number, as a list ordered by that number. */
export const acpsResult = z
  .object({
    acps: z.record(
      z.string(),
      z.object({
        supportWeight: u64,
        supporters: z
          .array(z.string())
          .nullable()
          .transform((v) => v ?? []),
        objectWeight: u64,
        objectors: z
          .array(z.string())
          .nullable()
          .transform((v) => v ?? []),
        abstainWeight: u64,
      }),
    ),
  })
  .transform((r) =>
    Object.entries(r.acps)
      .map(([acp, pref]) => ({ acp: Number(acp), ...pref }))
      .sort((a, b) => a.acp - b.acp),
  );
export type AcpPreference = z.output<typeof acpsResult>[number];

/** `info.getVMs`: VM id → aliases, as a list; `fxs` (feature extensions) likewise when present. */
export const getVmsResult = z
  .object({
    vms: z.record(z.string(), z.array(z.string())),
    fxs: z.record(z.string(), z.string()).optional(),
  })
  .transform((r) => ({
    vms: Object.entries(r.vms).map(([id, aliases]) => ({ id, aliases })),
    fxs: Object.entries(r.fxs ?? {}).map(([id, name]) => ({ id, name })),
  }));
export type VmsResult = z.output<typeof getVmsResult>;

/** Deprecated as of AvalancheGo v1.12.2: only txFee and createAssetTxFee are still in use. */
export const infoTxFeeResult = z.object({
  txFee: u64,
  createAssetTxFee: u64,
  createSubnetTxFee: u64.optional(),
  transformSubnetTxFee: u64.optional(),
  createBlockchainTxFee: u64.optional(),
  addPrimaryNetworkValidatorFee: u64.optional(),
  addPrimaryNetworkDelegatorFee: u64.optional(),
  addSubnetValidatorFee: u64.optional(),
  addSubnetDelegatorFee: u64.optional(),
});
export type InfoTxFee = z.output<typeof infoTxFeeResult>;

/**
 * `info.upgrades`: ISO-8601 activation times named `<upgrade>Time`, plus two non-time fields. The named
 * upgrades are typed fields; every `*Time` key (including ones newer than this contract) is also kept as
 * a list, so a node that knows a newer upgrade still shows it.
 */
const iso = z.string().optional();
const namedUpgrades = z.object({
  apricotPhase1Time: iso,
  apricotPhase2Time: iso,
  apricotPhase3Time: iso,
  apricotPhase4Time: iso,
  apricotPhase4MinPChainHeight: u64.optional(),
  apricotPhase5Time: iso,
  apricotPhasePre6Time: iso,
  apricotPhase6Time: iso,
  apricotPhasePost6Time: iso,
  banffTime: iso,
  cortinaTime: iso,
  cortinaXChainStopVertexID: z.string().optional(),
  durangoTime: iso,
  etnaTime: iso,
  fortunaTime: iso,
  graniteTime: iso,
  heliconTime: iso,
});
export const upgradesResult = z.record(z.string(), z.unknown()).transform((raw, ctx) => {
  const named = namedUpgrades.safeParse(raw);
  if (!named.success) {
    for (const issue of named.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  const schedule = Object.entries(raw)
    .filter((e): e is [string, string] => e[0].endsWith('Time') && typeof e[1] === 'string')
    .map(([key, time]) => ({ name: key.slice(0, -'Time'.length), time }));
  return { ...named.data, schedule };
});
export type Upgrades = z.output<typeof upgradesResult>;
