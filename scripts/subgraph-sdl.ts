import { printSubgraphSchema } from '@apollo/subgraph';
import { buildSchema } from '../src/schema/index.js';

/** `npm run subgraph:sdl`: the federation v2 subgraph SDL (with @key and @link), for composition. */
process.stdout.write(printSubgraphSchema(buildSchema()));
