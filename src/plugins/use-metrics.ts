import type { Plugin } from 'graphql-yoga';
import { type MetricsOptions, metricsAnswer } from '../metrics-answer.js';

/** `GET /metrics` on PORT (src/metrics-answer.ts says who gets what). */
export function useMetrics(options: MetricsOptions): Plugin {
  const path = options.path ?? '/metrics';
  const answer = metricsAnswer(options);
  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      const a = await answer(request.headers.get('authorization'));
      endResponse(new fetchAPI.Response(a.body, { status: a.status, headers: a.headers }));
    },
  };
}
