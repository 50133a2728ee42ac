import type { IncomingMessage, ServerResponse } from 'node:http';
import { rawPathOf } from './path-guard.js';
import type { Stage } from './pipeline.js';

/** The route the Data API's webhook deliveries reach (src/live/webhooks.ts). */
export interface WebhookRoute {
  path: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Webhook deliveries get their own handler (signature, body limit), never GraphQL. */
export function webhookStage(hook: WebhookRoute): Stage {
  return (req, res) => {
    if (rawPathOf(req.url ?? '/') !== hook.path) return false;
    hook.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
    return true;
  };
}
