import type { Row } from './chaos-kit.js';
import type { Size } from './chaos-rows.js';

export async function redisFailover(_size: Size, _cmd: string): Promise<Row[]> {
  return [];
}
