import { type HttpClient, type RequestOptions, withCall } from './http.js';
import type { CallContext } from './request.js';
import {
  type NetworkName,
  type SignatureAggregation,
  signatureAggregationResponse,
} from './schemas/primary.js';

/**
 * The Data API's signature aggregator. Unlike every other upstream client this one does not describe
 * requests for the cache: aggregation collects fresh validator signatures at a P-Chain height (a new answer
 * each time, and real work upstream), so it is never cached, never coalesced and never retried — a retry
 * could double the work for an answer the first attempt may already have produced.
 */
export interface SignatureAggregationBody {
  message?: string;
  justification?: string;
  signingSubnetId?: string;
  quorumPercentage?: number;
  quorumPercentageBuffer?: number;
  pChainHeight?: number;
}

export interface SignatureAggregatorClient {
  /** POST …/aggregateSignatures (answers 201). */
  aggregate(
    network: NetworkName,
    body: SignatureAggregationBody,
    call?: CallContext,
  ): Promise<SignatureAggregation>;
  /** GET …/aggregateSignatures/{txHash}: the signed Warp message of an L1-related P/X-Chain transaction (201 too). */
  forTransaction(
    network: NetworkName,
    txHash: string,
    call?: CallContext,
  ): Promise<SignatureAggregation>;
}

const seg = encodeURIComponent;

export function createSignatureAggregatorClient(
  http: HttpClient,
  opts: RequestOptions = {},
): SignatureAggregatorClient {
  const once: RequestOptions = { ...opts, retry: false };
  return {
    aggregate: (network, body, call) =>
      http.postJson(
        `/v1/signatureAggregator/${seg(network)}/aggregateSignatures`,
        body,
        signatureAggregationResponse,
        withCall(once, call),
      ),
    forTransaction: (network, txHash, call) =>
      http.getJson(
        `/v1/signatureAggregator/${seg(network)}/aggregateSignatures/${seg(txHash)}`,
        {},
        signatureAggregationResponse,
        withCall(once, call),
      ),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const SIGNATURE_AGGREGATOR_RESOURCES = ['data.signatureAggregation'] as const;
