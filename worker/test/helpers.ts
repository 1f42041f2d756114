import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { seedStatements } from '../../scripts/seed-data.ts';
import worker from '../src/index.ts';
import type { Env } from '../src/env.ts';

type IncomingRequest = Parameters<typeof worker.fetch>[0];

/** Calls the Worker as a browser on the clinic's origin would, with the real bindings (or some swapped). */
export async function call(path: string, init?: RequestInit, bindings: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`https://clinic.test${path}`, init) as IncomingRequest;
  const response = await worker.fetch(request, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function seed(): Promise<void> {
  await env.DB.batch(seedStatements().map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
}

export async function count(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}
