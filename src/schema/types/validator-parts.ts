import type { BlsCredentials, Rewards, Validator } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';

/** The parts of a validation period: its BLS key, its rewards, and an active period's health and place. */
export const BlsCredentialsRef = builder.objectRef<BlsCredentials>('BlsCredentials').implement({
  description: 'A validator BLS public key and its proof of possession.',
  fields: (t) =>
    exposed(t, {
      publicKey: ['String', 'BLS public key, 0x-hex (48 bytes).'],
      proofOfPossession: [
        'String',
        'BLS signature proving possession of the key, 0x-hex (96 bytes).',
      ],
    }),
});

export const RewardsRef = builder.objectRef<Rewards>('ValidatorRewards').implement({
  description: 'Validation and delegation rewards, in nAVAX.',
  fields: (t) => ({
    ...exposed(t, {
      validationRewardAmount: ['BigDecimal', 'Reward for validating, in nAVAX (decimal string).'],
      delegationRewardAmount: [
        'BigDecimal',
        'Reward from delegation fees, in nAVAX (decimal string).',
      ],
    }),
    rewardAddresses: t.stringList({
      resolve: (r) => r.rewardAddresses ?? [],
      description:
        'Addresses (bech32) the rewards are paid to; empty when the upstream lists none.',
    }),
    rewardTxHash: t.exposeString('rewardTxHash', {
      nullable: true,
      description: 'Hash (CB58) of the RewardValidatorTx that paid the rewards; null until paid.',
    }),
  }),
});

export const HealthRef = builder
  .objectRef<Extract<Validator, { validationStatus: 'active' }>['validatorHealth']>(
    'ValidatorHealth',
  )
  .implement({
    description: 'How the indexer’s node sees this validator, as percentages of its last polling.',
    fields: (t) =>
      exposed(t, {
        reachabilityPercent: [
          'Float',
          'Percent of requests the validator answered in the last polling.',
        ],
        benchedPChainRequestsPercent: [
          'Float',
          'Percent of P-Chain requests benched (not sent to it) in the last polling.',
        ],
        benchedXChainRequestsPercent: [
          'Float',
          'Percent of X-Chain requests benched in the last polling.',
        ],
        benchedCChainRequestsPercent: [
          'Float',
          'Percent of C-Chain requests benched in the last polling.',
        ],
      }),
  });

export const GeolocationRef = builder
  .objectRef<NonNullable<Extract<Validator, { validationStatus: 'active' }>['geolocation']>>(
    'Geolocation',
  )
  .implement({
    description: "Where the validator's node is, as the indexer geolocates its IP.",
    fields: (t) =>
      exposed(t, {
        city: ['String', 'City.'],
        country: ['String', 'Country name.'],
        countryCode: ['String', 'ISO 3166-1 alpha-2 country code.'],
        latitude: ['Float', 'Latitude in degrees.'],
        longitude: ['Float', 'Longitude in degrees.'],
      }),
  });
