import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { loggedOperationName } from '../telemetry/request-log.js';
import type { RequestObserver } from '../telemetry/request-observer.js';
import { requestScopeOf } from '../telemetry/request-scope.js';

/**
 * The request observer (src/telemetry/request-observer.ts) as Yoga's first plugin: it wraps the request
 * in its span and scope, notes the operation's name and type and the result's error codes, and sets the
 * request id and writes the log line on the response.
 */
export function useObservability(observer: RequestObserver): Plugin {
  return {
    instrumentation: {
      request: ({ request }, wrapped) => observer.observe(request, wrapped),
    },
    onParams({ params, request }) {
      const scope = requestScopeOf(request);
      const name = loggedOperationName(params.operationName);
      if (scope && name) scope.operationName = name;
    },
    onExecute({ args }) {
      const scope = requestScopeOf((args.contextValue as { request: Request }).request);
      if (!scope) return;
      const op = getOperationAST(args.document, args.operationName);
      if (op?.name) scope.operationName = op.name.value.slice(0, 100);
      if (op) scope.operationType = op.operation;
    },
    onResultProcess({ result, request }) {
      observer.noteErrors(request, result);
    },
    onResponse({ request, response }) {
      observer.respond(request, response.status, (name, value) =>
        response.headers.set(name, value),
      );
    },
  };
}
