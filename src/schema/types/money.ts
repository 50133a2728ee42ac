import { CURRENCY_CODES, type Money } from '../../upstream/schemas/evm.js';
import { builder } from '../builder.js';

/** The fiat currencies the Data API prices in; GraphQL names are upper case, the upstream's lower case. */
export const CurrencyCodeEnum = builder.enumType('CurrencyCode', {
  description: 'A fiat currency the Data API can price in.',
  values: Object.fromEntries(CURRENCY_CODES.map((c) => [c.toUpperCase(), { value: c }])) as Record<Uppercase<(typeof CURRENCY_CODES)[number]>, { value: (typeof CURRENCY_CODES)[number] }>,
});

export const MoneyRef = builder.objectRef<Money>('Money').implement({
  description: 'A fiat amount (a price, or a balance’s value).',
  fields: (t) => ({
    currencyCode: t.expose('currencyCode', { type: CurrencyCodeEnum }),
    value: t.expose('value', { type: 'BigDecimal', description: 'The amount as an exact decimal string.' }),
  }),
});
