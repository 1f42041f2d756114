import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes } from '../contract/routes.ts';
import { openApiDocument } from '../worker/src/platform/openapi.ts';

/**
 * GET /api/openapi.json (worker/src/platform/openapi.ts): the contract as OpenAPI 3.1, checked by
 * an OpenAPI validator here in Node; the Worker's tests check every 2xx answer against it
 * (worker/test/helpers.ts, checkAgainstContract).
 */
describe('the OpenAPI document', () => {
  const document = openApiDocument();

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route of the contract, with who may call it', () => {
    const paths = document.paths as Record<string, Record<string, { 'x-audience': string }>>;
    const listed = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op['x-audience']]),
    );
    const expected = Object.entries(routes).map(([key, contract]) => [
      key.replace(/:(\w+)\+?/g, '{$1}'),
      contract.audience,
    ]);
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('describes a body, a query and an answer as JSON Schema', () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/bookings']?.post).toMatchObject({
      'x-audience': 'patient',
      security: [{ accessToken: [] }],
      requestBody: {
        content: {
          'application/json': { schema: { type: 'object', required: expect.arrayContaining(['treatment']) } },
        },
      },
    });
    expect(paths['/schedule']?.get?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'date', in: 'query' })]),
    );
    expect(paths['/bookings/{id}/forms']?.get).toMatchObject({
      parameters: [{ name: 'id', in: 'path', required: true }],
      responses: { '2XX': { content: { 'application/json': { schema: { type: 'array' } } } } },
    });
  });
});
