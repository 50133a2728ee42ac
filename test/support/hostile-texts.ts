/**
 * Upstream error texts a hostile or careless upstream could answer (issue 42, item 5): a key, an internal host
 * and port, a password, SQL, a stack trace, a URL with credentials. None may reach a client
 * (test/unit/client-text.test.ts, the hostile table).
 */
export const HOSTILE_UPSTREAM_TEXTS = [
  'invalid key ak_9f8e7d6c5b4a39281706f5e4d3c2b1a0ZYXWVUTS',
  'Invalid api key sk1Gq7ZxV9pLk2',
  'connect ECONNREFUSED db-internal-3.corp.local:5432',
  'db-internal-3.corp.local refused the connection',
  'password=hunter2',
  'auth failed for user gateway password hunter2',
  'SELECT * FROM users WHERE api_key = $1',
  'syntax error at or near "WHERE" in SELECT id FROM webhooks WHERE owner=\'x\'',
  'TypeError: x is undefined\n    at handler (/srv/app/index.js:12:7)',
  'at Object.<anonymous> (/srv/app/x.js:1:2)',
  'panic: nil map at service.go:212',
  'failed to reach https://admin:s3cret@10.0.3.7:9650/ext/bc/C/rpc',
  'upstream redis://:hunter2@cache.internal:6379 timed out',
  '<html><body>404 Not Found</body></html>',
  'db pool exhausted at 10.1.2.3',
];
