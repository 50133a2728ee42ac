import type {
  AcpPreference,
  InfoTxFee,
  NodeIdResult,
  NodeVersion,
  Upgrades,
  UptimeResult,
  VmsResult,
} from '../../upstream/schemas/node-info.js';
import { builder } from '../builder.js';

/** The object types of the info API's answers (`/ext/info`), as the NetworkNode fields return them. */

export const NodeProofOfPossessionRef = builder
  .objectRef<NonNullable<NodeIdResult['nodePOP']>>('NodeProofOfPossession')
  .implement({
    description: "The node's BLS key and the proof that it holds the secret key (info.getNodeID).",
    fields: (t) => ({
      publicKey: t.exposeString('publicKey', {
        description: '48-byte compressed BLS public key, 0x-hex.',
      }),
      proofOfPossession: t.exposeString('proofOfPossession', {
        description: '96-byte BLS signature, 0x-hex.',
      }),
    }),
  });

const VmVersionRef = builder
  .objectRef<NodeVersion['vmVersions'][number]>('NodeVmVersion')
  .implement({
    description: 'The version of one VM the node runs.',
    fields: (t) => ({
      vm: t.exposeString('vm', {
        description: 'VM name as the node reports it (e.g. "avm", "evm", "platform").',
      }),
      version: t.exposeString('version', { description: 'Its version (e.g. "v1.14.2").' }),
    }),
  });

export const NodeVersionRef = builder.objectRef<NodeVersion>('NodeVersion').implement({
  description: 'What software the node runs (info.getNodeVersion).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'e.g. "avalanchego/1.14.2".' }),
    databaseVersion: t.exposeString('databaseVersion', {
      description: 'Version of the node\'s database format (e.g. "v1.4.5").',
    }),
    gitCommit: t.exposeString('gitCommit', {
      description: 'Git commit the node binary was built from.',
    }),
    rpcProtocolVersion: t.exposeInt('rpcProtocolVersion', {
      description: 'The RPC chain VM protocol version plugins must speak.',
    }),
    vmVersions: t.field({
      type: [VmVersionRef],
      description: 'Versions of the VMs the node runs; empty when none reported.',
      resolve: (v) => v.vmVersions,
    }),
  }),
});

const UpgradeRef = builder.objectRef<Upgrades['schedule'][number]>('NetworkUpgrade').implement({
  description: 'One scheduled network upgrade: its name and activation time.',
  fields: (t) => ({
    name: t.exposeString('name', {
      description: 'e.g. "durango" (the node names the key "durangoTime").',
    }),
    time: t.exposeString('time', {
      description: 'Activation time, ISO 8601 UTC as the node gives it.',
    }),
  }),
});

export const NetworkUpgradesRef = builder.objectRef<Upgrades>('NetworkUpgrades').implement({
  description:
    "The network's upgrade schedule as the node knows it (info.upgrades). Times are ISO 8601 UTC strings as the node gives them.",
  fields: (t) => ({
    apricotPhase1Time: t.exposeString('apricotPhase1Time', {
      nullable: true,
      description:
        'Apricot Phase 1 activation time (ISO 8601 UTC); null when the node does not report it.',
    }),
    apricotPhase2Time: t.exposeString('apricotPhase2Time', {
      nullable: true,
      description: 'Apricot Phase 2 activation time; null when not reported.',
    }),
    apricotPhase3Time: t.exposeString('apricotPhase3Time', {
      nullable: true,
      description: 'Apricot Phase 3 activation time; null when not reported.',
    }),
    apricotPhase4Time: t.exposeString('apricotPhase4Time', {
      nullable: true,
      description: 'Apricot Phase 4 activation time; null when not reported.',
    }),
    apricotPhase4MinPChainHeight: t.expose('apricotPhase4MinPChainHeight', {
      type: 'BigDecimal',
      nullable: true,
      description:
        'Minimum P-Chain height for Apricot Phase 4 (decimal string); null when not reported.',
    }),
    apricotPhase5Time: t.exposeString('apricotPhase5Time', {
      nullable: true,
      description: 'Apricot Phase 5 activation time; null when not reported.',
    }),
    apricotPhasePre6Time: t.exposeString('apricotPhasePre6Time', {
      nullable: true,
      description: 'Apricot Phase Pre-6 activation time; null when not reported.',
    }),
    apricotPhase6Time: t.exposeString('apricotPhase6Time', {
      nullable: true,
      description: 'Apricot Phase 6 activation time; null when not reported.',
    }),
    apricotPhasePost6Time: t.exposeString('apricotPhasePost6Time', {
      nullable: true,
      description: 'Apricot Phase Post-6 activation time; null when not reported.',
    }),
    banffTime: t.exposeString('banffTime', {
      nullable: true,
      description: 'Banff activation time; null when not reported.',
    }),
    cortinaTime: t.exposeString('cortinaTime', {
      nullable: true,
      description: 'Cortina activation time; null when not reported.',
    }),
    cortinaXChainStopVertexId: t.exposeString('cortinaXChainStopVertexID', {
      nullable: true,
      description: 'Id of the X-Chain stop vertex at Cortina (CB58); null when not reported.',
    }),
    durangoTime: t.exposeString('durangoTime', {
      nullable: true,
      description: 'Durango activation time; null when not reported.',
    }),
    etnaTime: t.exposeString('etnaTime', {
      nullable: true,
      description: 'Etna activation time; null when not reported.',
    }),
    fortunaTime: t.exposeString('fortunaTime', {
      nullable: true,
      description: 'Fortuna activation time; null when not reported.',
    }),
    graniteTime: t.exposeString('graniteTime', {
      nullable: true,
      description: 'Granite activation time; null when not reported.',
    }),
    heliconTime: t.exposeString('heliconTime', {
      nullable: true,
      description: 'Helicon activation time; null when not reported.',
    }),
    schedule: t.field({
      type: [UpgradeRef],
      description:
        'Every upgrade time the node reported, in its order, including upgrades newer than this schema.',
      resolve: (u) => u.schedule,
    }),
  }),
});

export const AcpPreferenceRef = builder.objectRef<AcpPreference>('AcpPreference').implement({
  description:
    'Stake-weighted preferences of the validators for one Avalanche Community Proposal (info.acps). Weights in nAVAX.',
  fields: (t) => ({
    acp: t.exposeInt('acp', { description: 'The proposal number.' }),
    supportWeight: t.expose('supportWeight', {
      type: 'BigDecimal',
      description: 'Stake (nAVAX) of the validators that support the proposal.',
    }),
    supporters: t.exposeStringList('supporters', {
      description: 'Node ids (`NodeID-…`) of the validators that support it.',
    }),
    objectWeight: t.expose('objectWeight', {
      type: 'BigDecimal',
      description: 'Stake (nAVAX) of the validators that object to it.',
    }),
    objectors: t.exposeStringList('objectors', {
      description: 'Node ids (`NodeID-…`) of the validators that object to it.',
    }),
    abstainWeight: t.expose('abstainWeight', {
      type: 'BigDecimal',
      description: 'Stake (nAVAX) of the validators that state no preference.',
    }),
  }),
});

export const VirtualMachineRef = builder
  .objectRef<VmsResult['vms'][number]>('VirtualMachine')
  .implement({
    description: 'A VM installed on the node, by its id, with its aliases.',
    fields: (t) => ({
      id: t.exposeString('id', { description: 'CB58 VM id.' }),
      aliases: t.exposeStringList('aliases', {
        description: 'Names the VM is also known by (e.g. "avm"); empty when none.',
      }),
    }),
  });

export const FeatureExtensionRef = builder
  .objectRef<VmsResult['fxs'][number]>('FeatureExtension')
  .implement({
    description: 'A feature extension (Fx) installed on the node.',
    fields: (t) => ({
      id: t.exposeString('id', { description: 'CB58 Fx id.' }),
      name: t.exposeString('name', {
        description: 'Fx name (e.g. "secp256k1fx", "nftfx", "propertyfx").',
      }),
    }),
  });

export const NodeUptimeRef = builder.objectRef<UptimeResult>('NodeUptime').implement({
  description:
    "How the network sees this node's uptime (info.uptime), as percentages printed by the node.",
  fields: (t) => ({
    rewardingStakePercentage: t.expose('rewardingStakePercentage', {
      type: 'BigDecimal',
      description: 'Percent of stake that thinks this node meets the uptime requirement.',
    }),
    weightedAveragePercentage: t.expose('weightedAveragePercentage', {
      type: 'BigDecimal',
      description: 'Stake-weighted average of the observed uptimes.',
    }),
  }),
});

export const NodeTxFeesRef = builder.objectRef<InfoTxFee>('NodeTxFees').implement({
  description:
    'Static transaction fees in nAVAX (info.getTxFee). Only txFee and createAssetTxFee are still in use.',
  fields: (t) => ({
    txFee: t.expose('txFee', {
      type: 'BigDecimal',
      description: 'Fee of a base (transfer) transaction, in nAVAX.',
    }),
    createAssetTxFee: t.expose('createAssetTxFee', {
      type: 'BigDecimal',
      description: 'Fee to create an asset, in nAVAX.',
    }),
    createSubnetTxFee: t.expose('createSubnetTxFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to create a subnet, in nAVAX; null when the node no longer reports it.',
    }),
    transformSubnetTxFee: t.expose('transformSubnetTxFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to transform a subnet, in nAVAX; null when not reported.',
    }),
    createBlockchainTxFee: t.expose('createBlockchainTxFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to create a blockchain, in nAVAX; null when not reported.',
    }),
    addPrimaryNetworkValidatorFee: t.expose('addPrimaryNetworkValidatorFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to add a primary-network validator, in nAVAX; null when not reported.',
    }),
    addPrimaryNetworkDelegatorFee: t.expose('addPrimaryNetworkDelegatorFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to add a primary-network delegator, in nAVAX; null when not reported.',
    }),
    addSubnetValidatorFee: t.expose('addSubnetValidatorFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to add a subnet validator, in nAVAX; null when not reported.',
    }),
    addSubnetDelegatorFee: t.expose('addSubnetDelegatorFee', {
      type: 'BigDecimal',
      nullable: true,
      description: 'Fee to add a subnet delegator, in nAVAX; null when not reported.',
    }),
  }),
});
