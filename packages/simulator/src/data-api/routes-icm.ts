import type { IcmMessage } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { notFound } from './errors.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { icmMessageJson } from './shape-primary.js';

/** ICM messages sent or received by an EVM address, newest first; one message by id. */

const cmp = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

export const icmRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/icm/messages/:messageId',
    handler: (ctx) => {
      const m =
        ctx.world.icm.byId.get(ctx.params.messageId!) ??
        ctx.world.icm.byId.get(ctx.params.messageId!.replace(/^0x/, '').toLowerCase());
      if (!m) throw notFound(`ICM message ${ctx.params.messageId} not found`);
      return icmMessageJson(ctx.world, m);
    },
  },
  {
    method: 'GET',
    template: '/v1/icm/addresses/:address/messages',
    handler: (ctx) => {
      const address = ctx.evmAddress();
      const size = ctx.pageSize();
      const network = ctx.enumOf('network', ['mainnet', 'fuji', 'testnet'] as const);
      ctx.check();
      const want = network === undefined ? undefined : network === 'mainnet' ? 'mainnet' : 'fuji';
      const filters = ['network'];
      const { page, next } = pageOf<IcmMessage, [number, number]>(
        ctx.world.icm.forAddress(address),
        {
          desc: true,
          size,
          after: ctx.cursor<[number, number]>(filters),
          key: (m) => [m.timestamp, m.seq],
          cmp,
          filter: want === undefined ? undefined : (m) => m.network === want,
        },
      );
      return {
        ...ctx.nextPage(filters, next),
        messages: page.map((m) => icmMessageJson(ctx.world, m)),
      };
    },
  },
];
