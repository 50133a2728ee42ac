import { CURRENCY_CODES, type Money } from '../../upstream/schemas/evm.js';
import { builder } from '../builder.js';

const CURRENCY_NAMES: Record<(typeof CURRENCY_CODES)[number], string> = {
  usd: 'US dollar',
  eur: 'Euro',
  aud: 'Australian dollar',
  cad: 'Canadian dollar',
  chf: 'Swiss franc',
  clp: 'Chilean peso',
  cny: 'Chinese yuan',
  czk: 'Czech koruna',
  dkk: 'Danish krone',
  gbp: 'Pound sterling',
  hkd: 'Hong Kong dollar',
  huf: 'Hungarian forint',
  jpy: 'Japanese yen',
  nzd: 'New Zealand dollar',
};

/** The fiat currencies the Data API prices in; GraphQL names are upper case, the upstream's lower case. */
export const CurrencyCodeEnum = builder.enumType('CurrencyCode', {
  description: 'A fiat currency the Data API can price in.',
  values: Object.fromEntries(
    CURRENCY_CODES.map((c) => [
      c.toUpperCase(),
      { value: c, description: `${CURRENCY_NAMES[c]} (ISO 4217 ${c.toUpperCase()}).` },
    ]),
  ) as Record<
    Uppercase<(typeof CURRENCY_CODES)[number]>,
    { value: (typeof CURRENCY_CODES)[number]; description: string }
  >,
});

export const MoneyRef = builder.objectRef<Money>('Money').implement({
  description: 'A fiat amount (a price, or a balance’s value).',
  fields: (t) => ({
    currencyCode: t.expose('currencyCode', {
      type: CurrencyCodeEnum,
      description: 'The currency of `value`.',
    }),
    value: t.expose('value', {
      type: 'BigDecimal',
      description: 'The amount as an exact decimal string.',
    }),
  }),
});
