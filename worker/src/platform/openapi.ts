import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { type Audience, type RouteContract, routes } from '../../../contract/routes.ts';

/**
 * GET /api/openapi.json: the API's contract as an OpenAPI 3.1 document, generated from
 * contract/routes.ts (the valibot schemas through @valibot/to-json-schema), never written twice.
 * Each operation says who may call it (`x-audience`) and the matching security scheme.
 */

type Operation = Record<string, unknown>;

const SECURITY: Record<Audience, Record<string, string[]>[]> = {
  public: [],
  identity: [{ firebaseIdToken: [] }],
  signed: [],
  patient: [{ accessToken: [] }],
  owner: [{ accessToken: [] }],
  admin: [{ accessToken: [] }],
};

const AUDIENCE_TEXT: Record<Audience, string> = {
  public: 'Anyone.',
  identity: 'The holder of a Firebase ID token.',
  signed: 'A caller that signs its body (the payment or SMS provider).',
  patient: 'Any signed-in user.',
  owner: 'A signed-in user who owns what the path names, or an admin where the route allows it.',
  admin: 'An admin.',
};

const schemaOf = (schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
  });
  return rest;
};

const ERROR: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, acknowledged: { const: false } },
  required: ['message'],
};

function operation(key: string, path: string, contract: RouteContract): Operation {
  const parameters: Operation[] = [...path.matchAll(/:(\w+)\+?/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (contract.query) {
    const query = schemaOf(contract.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  const body = contract.body;
  const requestBody =
    body === undefined
      ? undefined
      : 'form' in body
        ? {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', properties: { [body.form]: { type: 'string', format: 'binary' } } },
              },
            },
          }
        : 'signedBy' in body
          ? { required: true, description: `Signed by ${body.signedBy}.`, content: { '*/*': { schema: {} } } }
          : { required: true, content: { 'application/json': { schema: schemaOf(body, 'input') } } };
  const answer = contract.response;
  const content =
    'file' in answer
      ? { [answer.file]: { schema: { type: 'string', format: 'binary' } } }
      : { 'application/json': { schema: schemaOf(answer, 'output') } };
  return {
    operationId: key.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, ''),
    summary: key,
    description: `Who may call it: ${AUDIENCE_TEXT[contract.audience]}`,
    'x-audience': contract.audience,
    security: SECURITY[contract.audience],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '2XX': { description: 'Done', content },
      default: { description: 'Refused, in plain words', content: { 'application/json': { schema: ERROR } } },
    },
  };
}

let document: Record<string, unknown> | undefined;

/** The document (built once per isolate: the contract is fixed per deployment). */
export function openApiDocument(): Record<string, unknown> {
  if (document) return document;
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [key, contract] of Object.entries(routes) as [string, RouteContract][]) {
    const [method = '', path = ''] = key.split(' ');
    const openApiPath = path.replace(/:(\w+)\+?/g, '{$1}');
    paths[openApiPath] ??= {};
    (paths[openApiPath] as Record<string, Operation>)[method.toLowerCase()] = operation(key, path, contract);
  }
  document = {
    openapi: '3.1.0',
    info: {
      title: 'Smile Dental Clinic API',
      version: '3',
      description:
        'The booking portal’s REST API, generated from its contract (contract/routes.ts). Errors answer {message}.',
    },
    servers: [{ url: '/api' }],
    components: {
      securitySchemes: {
        accessToken: { type: 'http', scheme: 'bearer', description: 'The access token from GET /api/jwt.' },
        firebaseIdToken: { type: 'http', scheme: 'bearer', description: 'A Firebase ID token.' },
      },
    },
    paths,
  };
  return document;
}
