import useSWR from 'swr';
import { Spinner } from '../../components/spinner.tsx';
import { apiFetcher } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import './api-page.css';
import { pathOf } from '../../lib/route-paths.ts';

type Operation = {
  summary: string;
  description: string;
  'x-audience': string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type OpenApi = { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> };

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * docs/product-booking.md#for-integrators (/developers): the API's OpenAPI document (GET /api/openapi.json)
 * as a page: each route, who may call it, its parameters, body and answer. Loaded only here, never
 * with the patient pages.
 */
const OPENAPI = pathOf('GET /openapi.json');

export function ApiPage() {
  const { data, error } = useSWR<OpenApi>(OPENAPI, apiFetcher<OpenApi>);
  return (
    <section className="api-page" aria-labelledby="api-title">
      <h1 id="api-title">For integrators: the API</h1>
      <p>
        The whole contract, as OpenAPI 3.1: <a href={`/api${OPENAPI}`}>/api{OPENAPI}</a>. Errors answer{' '}
        <code>{'{message}'}</code> in plain words.
      </p>
      {error ? (
        <p role="alert">The API description could not be loaded: {errorText(error)}</p>
      ) : !data ? (
        <Spinner label="Loading the API description" />
      ) : (
        <ul className="api-page__routes">
          {Object.entries(data.paths).flatMap(([path, operations]) =>
            Object.entries(operations).map(([method, op]) => {
              const answer = op.responses['2XX']?.content;
              return (
                <li key={`${method} ${path}`}>
                  <details>
                    <summary>
                      <code className="api-page__method">{method.toUpperCase()}</code> <code>/api{path}</code>{' '}
                      <span className="muted">({op['x-audience']})</span>
                    </summary>
                    <p>{op.description}</p>
                    {op.parameters && (
                      <p>
                        Parameters:{' '}
                        {op.parameters.map((p) => `${p.name} (${p.in}${p.required ? ', required' : ''})`).join(', ')}
                      </p>
                    )}
                    {op.requestBody && (
                      <>
                        <h2>Body</h2>
                        <pre>{json(op.requestBody.content)}</pre>
                      </>
                    )}
                    {answer && (
                      <>
                        <h2>Answer</h2>
                        <pre>{json(answer)}</pre>
                      </>
                    )}
                  </details>
                </li>
              );
            }),
          )}
        </ul>
      )}
    </section>
  );
}
