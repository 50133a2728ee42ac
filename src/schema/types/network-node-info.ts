import type { AcpPreference, InfoTxFee, NodeIdResult, NodeVersion, UptimeResult, Upgrades, VmsResult } from '../../upstream/schemas/node-info.js';
import { builder } from '../builder.js';

/** The object types of the info API's answers (`/ext/info`), as the NetworkNode fields return them. */

export const NodeProofOfPossessionRef = builder.objectRef<NonNullable<NodeIdResult['nodePOP']>>('NodeProofOfPossession').implement({
  description: "The node's BLS key and the proof that it holds the secret key (info.getNodeID).",
  fields: (t) => ({
    publicKey: t.exposeString('publicKey', { description: '48-byte compressed BLS public key, 0x-hex.' }),
    proofOfPossession: t.exposeString('proofOfPossession', { description: '96-byte BLS signature, 0x-hex.' }),
  }),
});

const VmVersionRef = builder.objectRef<NodeVersion['vmVersions'][number]>('NodeVmVersion').implement({
  fields: (t) => ({ vm: t.exposeString('vm'), version: t.exposeString('version') }),
});

export const NodeVersionRef = builder.objectRef<NodeVersion>('NodeVersion').implement({
  description: 'What software the node runs (info.getNodeVersion).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'e.g. "avalanchego/1.14.2".' }),
    databaseVersion: t.exposeString('databaseVersion'),
    gitCommit: t.exposeString('gitCommit'),
    rpcProtocolVersion: t.exposeInt('rpcProtocolVersion', { description: 'The RPC chain VM protocol version plugins must speak.' }),
    vmVersions: t.field({ type: [VmVersionRef], resolve: (v) => v.vmVersions }),
  }),
});

const UpgradeRef = builder.objectRef<Upgrades['schedule'][number]>('NetworkUpgrade').implement({
  fields: (t) => ({
    name: t.exposeString('name', { description: 'e.g. "durango" (the node names the key "durangoTime").' }),
    time: t.exposeString('time', { description: 'Activation time, ISO 8601 UTC as the node gives it.' }),
  }),
});

export const NetworkUpgradesRef = builder.objectRef<Upgrades>('NetworkUpgrades').implement({
  description: "The network's upgrade schedule as the node knows it (info.upgrades). Times are ISO 8601 UTC strings as the node gives them.",
  fields: (t) => ({
    apricotPhase1Time: t.exposeString('apricotPhase1Time', { nullable: true }),
    apricotPhase2Time: t.exposeString('apricotPhase2Time', { nullable: true }),
    apricotPhase3Time: t.exposeString('apricotPhase3Time', { nullable: true }),
    apricotPhase4Time: t.exposeString('apricotPhase4Time', { nullable: true }),
    apricotPhase4MinPChainHeight: t.expose('apricotPhase4MinPChainHeight', { type: 'BigDecimal', nullable: true }),
    apricotPhase5Time: t.exposeString('apricotPhase5Time', { nullable: true }),
    apricotPhasePre6Time: t.exposeString('apricotPhasePre6Time', { nullable: true }),
    apricotPhase6Time: t.exposeString('apricotPhase6Time', { nullable: true }),
    apricotPhasePost6Time: t.exposeString('apricotPhasePost6Time', { nullable: true }),
    banffTime: t.exposeString('banffTime', { nullable: true }),
    cortinaTime: t.exposeString('cortinaTime', { nullable: true }),
    cortinaXChainStopVertexId: t.exposeString('cortinaXChainStopVertexID', { nullable: true }),
    durangoTime: t.exposeString('durangoTime', { nullable: true }),
    etnaTime: t.exposeString('etnaTime', { nullable: true }),
    fortunaTime: t.exposeString('fortunaTime', { nullable: true }),
    graniteTime: t.exposeString('graniteTime', { nullable: true }),
    heliconTime: t.exposeString('heliconTime', { nullable: true }),
    schedule: t.field({
      type: [UpgradeRef],
      description: 'Every upgrade time the node reported, in its order, including upgrades newer than this schema.',
      resolve: (u) => u.schedule,
    }),
  }),
});

export const AcpPreferenceRef = builder.objectRef<AcpPreference>('AcpPreference').implement({
  description: 'Stake-weighted preferences of the validators for one Avalanche Community Proposal (info.acps). Weights in nAVAX.',
  fields: (t) => ({
    acp: t.exposeInt('acp', { description: 'The proposal number.' }),
    supportWeight: t.expose('supportWeight', { type: 'BigDecimal' }),
    supporters: t.exposeStringList('supporters', { description: 'Node ids.' }),
    objectWeight: t.expose('objectWeight', { type: 'BigDecimal' }),
    objectors: t.exposeStringList('objectors', { description: 'Node ids.' }),
    abstainWeight: t.expose('abstainWeight', { type: 'BigDecimal' }),
  }),
});

export const VirtualMachineRef = builder.objectRef<VmsResult['vms'][number]>('VirtualMachine').implement({
  description: 'A VM installed on the node, by its id, with its aliases.',
  fields: (t) => ({ id: t.exposeString('id'), aliases: t.exposeStringList('aliases') }),
});

export const FeatureExtensionRef = builder.objectRef<VmsResult['fxs'][number]>('FeatureExtension').implement({
  description: 'A feature extension (Fx) installed on the node.',
  fields: (t) => ({ id: t.exposeString('id'), name: t.exposeString('name') }),
});

export const NodeUptimeRef = builder.objectRef<UptimeResult>('NodeUptime').implement({
  description: "How the network sees this node's uptime (info.uptime), as percentages printed by the node.",
  fields: (t) => ({
    rewardingStakePercentage: t.expose('rewardingStakePercentage', {
      type: 'BigDecimal',
      description: 'Percent of stake that thinks this node meets the uptime requirement.',
    }),
    weightedAveragePercentage: t.expose('weightedAveragePercentage', { type: 'BigDecimal', description: 'Stake-weighted average of the observed uptimes.' }),
  }),
});

export const NodeTxFeesRef = builder.objectRef<InfoTxFee>('NodeTxFees').implement({
  description: 'Static transaction fees in nAVAX (info.getTxFee). Only txFee and createAssetTxFee are still in use.',
  fields: (t) => ({
    txFee: t.expose('txFee', { type: 'BigDecimal' }),
    createAssetTxFee: t.expose('createAssetTxFee', { type: 'BigDecimal' }),
    createSubnetTxFee: t.expose('createSubnetTxFee', { type: 'BigDecimal', nullable: true }),
    transformSubnetTxFee: t.expose('transformSubnetTxFee', { type: 'BigDecimal', nullable: true }),
    createBlockchainTxFee: t.expose('createBlockchainTxFee', { type: 'BigDecimal', nullable: true }),
    addPrimaryNetworkValidatorFee: t.expose('addPrimaryNetworkValidatorFee', { type: 'BigDecimal', nullable: true }),
    addPrimaryNetworkDelegatorFee: t.expose('addPrimaryNetworkDelegatorFee', { type: 'BigDecimal', nullable: true }),
    addSubnetValidatorFee: t.expose('addSubnetValidatorFee', { type: 'BigDecimal', nullable: true }),
    addSubnetDelegatorFee: t.expose('addSubnetDelegatorFee', { type: 'BigDecimal', nullable: true }),
  }),
});
