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
import { exposed, refList } from '../expose.js';

/** The object types of the info API's answers (`/ext/info`), as the NetworkNode fields return them. */

export const NodeProofOfPossessionRef = builder
  .objectRef<NonNullable<NodeIdResult['nodePOP']>>('NodeProofOfPossession')
  .implement({
    description: "The node's BLS key and the proof that it holds the secret key (info.getNodeID).",
    fields: (t) =>
      exposed(t, {
        publicKey: ['String', '48-byte compressed BLS public key, 0x-hex.'],
        proofOfPossession: ['String', '96-byte BLS signature, 0x-hex.'],
      }),
  });

const VmVersionRef = builder
  .objectRef<NodeVersion['vmVersions'][number]>('NodeVmVersion')
  .implement({
    description: 'The version of one VM the node runs.',
    fields: (t) =>
      exposed(t, {
        vm: ['String', 'VM name as the node reports it (e.g. "avm", "evm", "platform").'],
        version: ['String', 'Its version (e.g. "v1.14.2").'],
      }),
  });

export const NodeVersionRef = builder.objectRef<NodeVersion>('NodeVersion').implement({
  description: 'What software the node runs (info.getNodeVersion).',
  fields: (t) => ({
    ...exposed(t, {
      version: ['String', 'e.g. "avalanchego/1.14.2".'],
      databaseVersion: ['String', 'Version of the node\'s database format (e.g. "v1.4.5").'],
      gitCommit: ['String', 'Git commit the node binary was built from.'],
      rpcProtocolVersion: ['Int', 'The RPC chain VM protocol version plugins must speak.'],
      vmVersions: refList(
        VmVersionRef,
        'Versions of the VMs the node runs; empty when none reported.',
      ),
    }),
  }),
});

const UpgradeRef = builder.objectRef<Upgrades['schedule'][number]>('NetworkUpgrade').implement({
  description: 'One scheduled network upgrade: its name and activation time.',
  fields: (t) =>
    exposed(t, {
      name: ['String', 'e.g. "durango" (the node names the key "durangoTime").'],
      time: ['String', 'Activation time, ISO 8601 UTC as the node gives it.'],
    }),
});

/** Rows of upgrade activation times the node may leave out, by field, each with its upgrade's name. */
const activationTimes = <const Field extends string>(upgrades: Record<Field, string>) =>
  Object.fromEntries(
    Object.entries(upgrades).map(([field, upgrade]) => [
      field,
      ['String?', `${upgrade} activation time; null when not reported.`] as const,
    ]),
  ) as Record<Field, readonly ['String?', string]>;

export const NetworkUpgradesRef = builder.objectRef<Upgrades>('NetworkUpgrades').implement({
  description:
    "The network's upgrade schedule as the node knows it (info.upgrades). Times are ISO 8601 UTC strings as the node gives them.",
  fields: (t) => ({
    ...exposed(t, {
      apricotPhase1Time: [
        'String?',
        'Apricot Phase 1 activation time (ISO 8601 UTC); null when the node does not report it.',
      ],
      ...activationTimes({
        apricotPhase2Time: 'Apricot Phase 2',
        apricotPhase3Time: 'Apricot Phase 3',
        apricotPhase4Time: 'Apricot Phase 4',
      }),
      apricotPhase4MinPChainHeight: [
        'BigDecimal?',
        'Minimum P-Chain height for Apricot Phase 4 (decimal string); null when not reported.',
      ],
      ...activationTimes({
        apricotPhase5Time: 'Apricot Phase 5',
        apricotPhasePre6Time: 'Apricot Phase Pre-6',
        apricotPhase6Time: 'Apricot Phase 6',
        apricotPhasePost6Time: 'Apricot Phase Post-6',
        banffTime: 'Banff',
        cortinaTime: 'Cortina',
      }),
    }),
    cortinaXChainStopVertexId: t.exposeString('cortinaXChainStopVertexID', {
      nullable: true,
      description: 'Id of the X-Chain stop vertex at Cortina (CB58); null when not reported.',
    }),
    ...exposed(t, {
      ...activationTimes({
        durangoTime: 'Durango',
        etnaTime: 'Etna',
        fortunaTime: 'Fortuna',
        graniteTime: 'Granite',
        heliconTime: 'Helicon',
      }),
      schedule: refList(
        UpgradeRef,
        'Every upgrade time the node reported, in its order, including upgrades newer than this schema.',
      ),
    }),
  }),
});

export const AcpPreferenceRef = builder.objectRef<AcpPreference>('AcpPreference').implement({
  description:
    'Stake-weighted preferences of the validators for one Avalanche Community Proposal (info.acps). Weights in nAVAX.',
  fields: (t) =>
    exposed(t, {
      acp: ['Int', 'The proposal number.'],
      supportWeight: ['BigDecimal', 'Stake (nAVAX) of the validators that support the proposal.'],
      supporters: ['[String]', 'Node ids (`NodeID-…`) of the validators that support it.'],
      objectWeight: ['BigDecimal', 'Stake (nAVAX) of the validators that object to it.'],
      objectors: ['[String]', 'Node ids (`NodeID-…`) of the validators that object to it.'],
      abstainWeight: ['BigDecimal', 'Stake (nAVAX) of the validators that state no preference.'],
    }),
});

export const VirtualMachineRef = builder
  .objectRef<VmsResult['vms'][number]>('VirtualMachine')
  .implement({
    description: 'A VM installed on the node, by its id, with its aliases.',
    fields: (t) =>
      exposed(t, {
        id: ['String', 'CB58 VM id.'],
        aliases: ['[String]', 'Names the VM is also known by (e.g. "avm"); empty when none.'],
      }),
  });

export const FeatureExtensionRef = builder
  .objectRef<VmsResult['fxs'][number]>('FeatureExtension')
  .implement({
    description: 'A feature extension (Fx) installed on the node.',
    fields: (t) =>
      exposed(t, {
        id: ['String', 'CB58 Fx id.'],
        name: ['String', 'Fx name (e.g. "secp256k1fx", "nftfx", "propertyfx").'],
      }),
  });

export const NodeUptimeRef = builder.objectRef<UptimeResult>('NodeUptime').implement({
  description:
    "How the network sees this node's uptime (info.uptime), as percentages printed by the node.",
  fields: (t) =>
    exposed(t, {
      rewardingStakePercentage: [
        'BigDecimal',
        'Percent of stake that thinks this node meets the uptime requirement.',
      ],
      weightedAveragePercentage: ['BigDecimal', 'Stake-weighted average of the observed uptimes.'],
    }),
});

export const NodeTxFeesRef = builder.objectRef<InfoTxFee>('NodeTxFees').implement({
  description:
    'Static transaction fees in nAVAX (info.getTxFee). Only txFee and createAssetTxFee are still in use.',
  fields: (t) =>
    exposed(t, {
      txFee: ['BigDecimal', 'Fee of a base (transfer) transaction, in nAVAX.'],
      createAssetTxFee: ['BigDecimal', 'Fee to create an asset, in nAVAX.'],
      createSubnetTxFee: [
        'BigDecimal?',
        'Fee to create a subnet, in nAVAX; null when the node no longer reports it.',
      ],
      transformSubnetTxFee: [
        'BigDecimal?',
        'Fee to transform a subnet, in nAVAX; null when not reported.',
      ],
      createBlockchainTxFee: [
        'BigDecimal?',
        'Fee to create a blockchain, in nAVAX; null when not reported.',
      ],
      addPrimaryNetworkValidatorFee: [
        'BigDecimal?',
        'Fee to add a primary-network validator, in nAVAX; null when not reported.',
      ],
      addPrimaryNetworkDelegatorFee: [
        'BigDecimal?',
        'Fee to add a primary-network delegator, in nAVAX; null when not reported.',
      ],
      addSubnetValidatorFee: [
        'BigDecimal?',
        'Fee to add a subnet validator, in nAVAX; null when not reported.',
      ],
      addSubnetDelegatorFee: [
        'BigDecimal?',
        'Fee to add a subnet delegator, in nAVAX; null when not reported.',
      ],
    }),
});
