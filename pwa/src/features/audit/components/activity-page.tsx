import { format } from 'date-fns/format';
import { type SubmitEvent, useId, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { ACTION_LABELS, actorText, changesOf, subjectText } from '../actions.ts';
import { type AuditAction, type AuditEntry, type AuditFilter, useAuditTrail } from '../api/get-audit-trail.ts';
import './activity.css';

const ACTIONS = Object.entries(ACTION_LABELS) as [AuditAction, string][];
const NO_FILTER: AuditFilter = { type: '', actor: '' };

function Changes({ entry }: { entry: AuditEntry }) {
  const changes = changesOf(entry);
  if (changes.length === 0) return null;
  return (
    <ul className="activity__changes">
      {changes.map(({ field, before, after }) => (
        <li key={field}>
          <span className="activity__field">{field}:</span>{' '}
          {before !== undefined && after !== undefined ? `${before} → ${after}` : (after ?? before)}
        </li>
      ))}
    </ul>
  );
}

/** One change in the log: what was done to what, what changed, then when and by whom. */
function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <li className="activity__entry">
      <p className="activity__what">
        <strong>{ACTION_LABELS[entry.action] ?? entry.action}</strong>: {subjectText(entry.target)}
      </p>
      <Changes entry={entry} />
      <p className="activity__meta">
        <time dateTime={entry.at}>{format(new Date(entry.at), 'PP, p')}</time> · {actorText(entry.actor)}
        {entry.actor.id ? ` (${entry.actor.label})` : ''}
      </p>
    </li>
  );
}

/**
 * Activity (admin): the audit trail, newest first: every admin action and payment state change,
 * filtered by action and by who acted, a page at a time.
 */
export function ActivityPage() {
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const { entries, error, hasMore, loadingMore, loadMore } = useAuditTrail(filter);
  const typeId = useId();
  const actorId = useId();
  if (error && !entries) throw error; // the layout's error screen

  function applyFilter(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilter({
      type: String(form.get('type') ?? '') as AuditFilter['type'],
      actor: String(form.get('actor') ?? '').trim(),
    });
  }

  const filtered = filter.type !== '' || filter.actor !== '';
  return (
    <section className="dashboard-page" aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <p className="activity__intro">
        Every admin action and every payment change, newest first. Entries cannot be changed or deleted.
      </p>
      <search aria-label="Filter activity">
        <form className="activity__filters" onSubmit={applyFilter}>
          <div className="field">
            <label htmlFor={typeId}>Action</label>
            <select id={typeId} name="type" defaultValue="">
              <option value="">All actions</option>
              {ACTIONS.map(([action, label]) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={actorId}>Who</label>
            <input
              id={actorId}
              name="actor"
              type="search"
              maxLength={254}
              placeholder="Email or user id"
              autoComplete="off"
            />
          </div>
          <button type="submit" className="button button--primary">
            Show
          </button>
        </form>
      </search>
      {!entries ? (
        <Spinner label="Loading activity" />
      ) : entries.length === 0 ? (
        <p className="activity__empty">{filtered ? 'No activity matches these filters.' : 'No activity yet.'}</p>
      ) : (
        <ol className="activity__log" aria-label="Activity">
          {entries.map((entry) => (
            <Entry key={entry._id} entry={entry} />
          ))}
        </ol>
      )}
      {error && entries ? (
        <p className="field__error" role="alert">
          More activity could not be loaded: {errorText(error)}
        </p>
      ) : null}
      {hasMore && (
        <button type="button" className="button activity__more" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
