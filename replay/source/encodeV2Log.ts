// The raw log a Protocol V2 contract emits for a V2 chain event: the inverse of the V2 decoder, through viem's
// ABI encoding (the demo and tests write few V2 logs, so speed does not matter here).
import { encodeAbiParameters, encodeEventTopics, type AbiParameter } from 'viem';
import type { V2ChainEvent } from '../../engine/chain/v2ChainEvent.js';
import { V2_EVENT_ABIS } from '../../engine/chain/v2EventAbis.js';
import type { EncodedLog } from './encodedLog.js';

/** A field's ABI value from its log form (engine/chain/v2ChainEvent.ts). */
function abiValue(input: AbiParameter, value: unknown): unknown {
  switch (input.type) {
    case 'bytes31':
      return (value as string).slice(0, 64);
    case 'bytes29':
      return (value as string).slice(0, 60);
    case 'uint256':
    case 'uint8':
      return typeof value === 'string' ? BigInt('0x' + value) : BigInt(value as number);
    case 'uint256[]':
      return (value as (string | number)[]).map((item) =>
        typeof item === 'string' ? BigInt('0x' + item) : BigInt(item),
      );
    default:
      return value;
  }
}

export function encodeV2Log(event: V2ChainEvent): EncodedLog {
  const abi = V2_EVENT_ABIS[event.kind];
  const fields = event as unknown as Record<string, unknown>;
  const args = Object.fromEntries(abi.inputs.map((input) => [input.name!, abiValue(input, fields[input.name!])]));
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args } as never) as string[];
  const dataInputs = abi.inputs.filter((input) => !input.indexed);
  const data = encodeAbiParameters(dataInputs, dataInputs.map((input) => args[input.name!]) as never);
  return { topics, data };
}
