import type { ChartConfiguration } from 'chart.js';
import { stringify } from 'csv-stringify/browser/esm/sync';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { type ReactNode, type SubmitEvent, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Spinner } from '../../../components/spinner.tsx';
import { clinicToday, isoDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { type InsightsAnswer, useInsights } from '../api/get-insights.ts';
import { dollars, heatMap, hourText, percent, share, WEEK_ORDER, WEEKDAYS, weeks, weekText } from '../figures.ts';
import { ChartCanvas } from './chart-canvas.tsx';
import '../insights.css';

const TEAL = '#2a7f8f';
const RED = '#b3261e';
const AMBER = '#a15c00';
const GREY = '#5f6b76';

type Cell = string | number;

/** A table in a box that scrolls sideways on its own (reachable by keyboard), its first column the row's name. */
function ScrollTable({ title, columns, rows }: { title: string; columns: string[]; rows: ReactNode[][] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling table must be reachable by keyboard (WCAG 2.1.1).
    <section className="table-scroll" tabIndex={0} aria-label={`${title}, table`}>
      <table className="table">
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the figures of one answer, in a fixed order.
            <tr key={r}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={columns[i]} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={columns[i]}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * One chart with its text summary (read first by a screen reader: the canvas is an image named by
 * it), a table view of its figures and a CSV of that table.
 */
function InsightPanel({
  title,
  summary,
  config,
  columns,
  rows,
  file,
}: {
  title: string;
  summary: string;
  config: ChartConfiguration;
  columns: string[];
  rows: Cell[][];
  file: string;
}) {
  const id = useId();
  const [table, setTable] = useState(false);
  const download = () =>
    saveFile(
      new Blob([stringify([columns, ...rows], { quoted: true, escape_formulas: true, record_delimiter: 'windows' })], {
        type: 'text/csv;charset=utf-8',
      }),
      file,
    );
  return (
    <section className="insight" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="insight__summary">{summary}</p>
      <ChartCanvas config={config} summary={`${title}: ${summary}`} />
      <div className="insight__actions">
        <button
          type="button"
          className="button button--small"
          aria-expanded={table}
          aria-controls={`${id}-table`}
          onClick={() => setTable(!table)}
        >
          {table ? 'Hide the table' : 'Show the table'}
        </button>
        <button type="button" className="button button--small" onClick={download}>
          Download CSV
        </button>
      </div>
      <div id={`${id}-table`} className="insight__table" hidden={!table}>
        {table && <ScrollTable title={title} columns={columns} rows={rows} />}
      </div>
    </section>
  );
}

const axisTitle = (text: string) => ({ display: true, text });

/** The charts of one answer: each built once per answer. */
function Charts({ answer }: { answer: InsightsAnswer }) {
  const zone = answer.timeZone;
  const range = `${answer.from}-to-${answer.to}`;
  const heat = useMemo(() => heatMap(answer), [answer]);
  const byWeek = useMemo(() => weeks(answer.days), [answer]);
  const resources = useMemo(
    () => [
      ...answer.totals.doctors.map((d) => ({ ...d, kind: 'Doctor' })),
      ...answer.totals.chairs.map((c) => ({ ...c, kind: 'Chair' })),
    ],
    [answer],
  );

  const heatConfig = useMemo((): ChartConfiguration => {
    const hourLabels = heat.hours.map(hourText);
    return {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: 'Chairs booked',
            data: heat.cells.map((c) => ({
              x: hourText(c.hour),
              y: WEEKDAYS[c.weekday] ?? '',
              v: share(c.bookedMinutes, c.openMinutes),
            })),
            backgroundColor: (context: { raw: unknown }) => {
              const value = (context.raw as { v?: number } | undefined)?.v ?? 0;
              return `rgba(42, 127, 143, ${0.08 + (0.92 * Math.min(value, 100)) / 100})`;
            },
            borderWidth: 0,
            width: ({ chart }) => (chart.chartArea?.width ?? 0) / Math.max(1, hourLabels.length) - 2,
            height: ({ chart }) => (chart.chartArea?.height ?? 0) / 7 - 2,
          },
        ],
      },
      options: {
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (item) => {
                const raw = item.raw as { x: string; y: string; v: number };
                return `${raw.y} ${raw.x}: ${raw.v}% booked`;
              },
            },
          },
        },
        scales: {
          x: {
            type: 'category',
            labels: hourLabels,
            offset: true,
            grid: { display: false },
            title: axisTitle(`Hour (${zone})`),
          },
          y: {
            type: 'category',
            labels: WEEK_ORDER.map((d) => WEEKDAYS[d] ?? ''),
            // Monday at the top, as the table reads.
            reverse: true,
            offset: true,
            grid: { display: false },
            title: axisTitle(`Weekday (${zone})`),
          },
        },
      },
    } as ChartConfiguration;
  }, [heat, zone]);

  const resourceConfig = useMemo(
    (): ChartConfiguration => ({
      type: 'bar',
      data: {
        labels: resources.map((r) => r.name),
        datasets: [
          {
            label: 'Booked (% of open time)',
            data: resources.map((r) => share(r.bookedMinutes, r.openMinutes)),
            backgroundColor: resources.map((r) => (r.kind === 'Doctor' ? TEAL : GREY)),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        plugins: { legend: { display: false } },
        scales: {
          x: {
            min: 0,
            suggestedMax: 100,
            title: axisTitle(`% of open time, ${answer.from} to ${answer.to} (${zone})`),
          },
        },
      },
    }),
    [resources, answer, zone],
  );

  const [lossConfig, revenueConfig] = useMemo((): [ChartConfiguration, ChartConfiguration] => {
    const labels = byWeek.map((w) => format(parseISO(w.start), 'MMM d'));
    const x = { title: axisTitle(`Week starting (${zone} calendar)`) };
    return [
      {
        type: 'line',
        data: {
          labels,
          datasets: [
            { label: 'Cancelled', data: byWeek.map((w) => w.cancelled), borderColor: RED, backgroundColor: RED },
            { label: 'No-shows', data: byWeek.map((w) => w.noShows), borderColor: AMBER, backgroundColor: AMBER },
            { label: 'Moved', data: byWeek.map((w) => w.moved), borderColor: GREY, backgroundColor: GREY },
          ],
        },
        options: { scales: { x, y: { min: 0, ticks: { precision: 0 }, title: axisTitle('Visits') } } },
      },
      {
        type: 'bar',
        data: {
          labels,
          datasets: [
            { label: 'Taken', data: byWeek.map((w) => w.revenue), backgroundColor: TEAL },
            { label: 'Refunded', data: byWeek.map((w) => w.refunded), backgroundColor: RED },
          ],
        },
        options: { scales: { x, y: { min: 0, title: axisTitle('US dollars') } } },
      },
    ];
  }, [byWeek, zone]);

  const open = heat.cells.filter((c) => c.openMinutes > 0);
  const rate = (c: { bookedMinutes: number; openMinutes: number }) => c.bookedMinutes / c.openMinutes;
  const busiest = open.reduce<(typeof open)[number] | undefined>(
    (a, c) => (!a || rate(c) > rate(a) ? c : a),
    undefined,
  );
  const quietest = open.reduce<(typeof open)[number] | undefined>(
    (a, c) => (!a || rate(c) < rate(a) ? c : a),
    undefined,
  );
  const cellName = (c: (typeof open)[number]) =>
    `${WEEKDAYS[c.weekday]} ${hourText(c.hour)} (${percent(c.bookedMinutes, c.openMinutes)})`;
  const heatSummary =
    busiest && quietest
      ? `The chairs were ${percent(answer.totals.bookedMinutes, answer.totals.openMinutes)} booked. Busiest: ${cellName(busiest)}; quietest: ${cellName(quietest)}.`
      : 'The clinic was not open in this range.';
  const ranked = [...answer.totals.doctors].filter((d) => d.openMinutes > 0).sort((a, b) => rate(b) - rate(a));
  const top = ranked[0];
  const bottom = ranked.at(-1);
  const resourceSummary =
    top && bottom
      ? `${top.name} was the most booked (${percent(top.bookedMinutes, top.openMinutes)} of their open time), ${bottom.name} the least (${percent(bottom.bookedMinutes, bottom.openMinutes)}).`
      : 'No doctor was working in this range.';
  const worst = byWeek.reduce<(typeof byWeek)[number] | undefined>(
    (a, w) => (!a || w.cancelled + w.noShows > a.cancelled + a.noShows ? w : a),
    undefined,
  );
  const t = answer.totals;
  const lossSummary = `${t.cancelled} cancelled, ${t.noShows} no-shows and ${t.moved} moved over ${byWeek.length} week${byWeek.length === 1 ? '' : 's'}${worst && worst.cancelled + worst.noShows > 0 ? `; the most lost in the ${weekText(worst.start).replace(/^W/, 'w')}` : ''}.`;
  const best = byWeek.reduce<(typeof byWeek)[number] | undefined>(
    (a, w) => (!a || w.revenue > a.revenue ? w : a),
    undefined,
  );
  const revenueSummary = `${dollars(t.revenue)} taken and ${dollars(t.refunded)} refunded${best && best.revenue > 0 ? `; the best was the ${weekText(best.start).replace(/^W/, 'w')} (${dollars(best.revenue)})` : ''}.`;

  return (
    <div className="insights__charts">
      <InsightPanel
        title="How full the chairs were, by weekday and hour"
        summary={heatSummary}
        config={heatConfig}
        columns={['Weekday', ...heat.hours.map(hourText)]}
        rows={WEEK_ORDER.map((weekday) => [
          WEEKDAYS[weekday] ?? '',
          ...heat.hours.map((hour) => {
            const cell = heat.cells.find((c) => c.weekday === weekday && c.hour === hour);
            return cell ? percent(cell.bookedMinutes, cell.openMinutes) : '–';
          }),
        ])}
        file={`insights-utilisation-${range}.csv`}
      />
      <InsightPanel
        title="Each doctor and chair"
        summary={resourceSummary}
        config={resourceConfig}
        columns={['Name', 'Kind', 'Booked minutes', 'Open minutes', 'Booked']}
        rows={resources.map((r) => [
          r.name,
          r.kind,
          r.bookedMinutes,
          r.openMinutes,
          percent(r.bookedMinutes, r.openMinutes),
        ])}
        file={`insights-doctors-and-chairs-${range}.csv`}
      />
      <InsightPanel
        title="Cancellations, no-shows and moves by week"
        summary={lossSummary}
        config={lossConfig}
        columns={['Week', 'Visits', 'Cancelled', 'No-shows', 'Moved']}
        rows={byWeek.map((w) => [weekText(w.start), w.visits, w.cancelled, w.noShows, w.moved])}
        file={`insights-cancellations-${range}.csv`}
      />
      <InsightPanel
        title="Revenue by week"
        summary={revenueSummary}
        config={revenueConfig}
        columns={['Week', 'Taken', 'Refunded', 'Net']}
        rows={byWeek.map((w) => [
          weekText(w.start),
          dollars(w.revenue),
          dollars(w.refunded),
          dollars(Math.round((w.revenue - w.refunded) * 100) / 100),
        ])}
        file={`insights-revenue-${range}.csv`}
      />
    </div>
  );
}

/** The range's key figures, as a manager reads them first. */
function KeyFigures({ answer }: { answer: InsightsAnswer }) {
  const t = answer.totals;
  const figures: [string, string][] = [
    ['Visits', String(t.visits)],
    ['Chairs booked', percent(t.bookedMinutes, t.openMinutes)],
    ['No-show rate', t.noShowRate === null ? '–' : `${Math.round(t.noShowRate * 100)}%`],
    [
      'Cancelled',
      `${t.cancelled} (${t.cancelledBy.patient} by patients, ${t.cancelledBy.clinic} by the clinic, ${t.cancelledBy.unpaid} unpaid)`,
    ],
    ['Moved', String(t.moved)],
    ['Bookings made', String(t.made)],
    ['Revenue taken', dollars(t.revenue)],
    ['Refunded', dollars(t.refunded)],
    ['Still to pay', dollars(t.outstanding)],
    [
      'Booked ahead',
      t.leadTimeDays ? `${t.leadTimeDays.median} days (median), ${t.leadTimeDays.p90} days (90th percentile)` : '–',
    ],
    ['Waitlist offers taken', `${t.offersAccepted} of ${t.offers}`],
    [
      'Recalls booked',
      t.recalls.rate === null
        ? '–'
        : `${t.recalls.booked} of ${t.recalls.due} due (${Math.round(t.recalls.rate * 100)}%)`,
    ],
  ];
  return (
    <dl className="insights__figures">
      {figures.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Each day of the range, each opening that day's schedule. */
function Days({ answer }: { answer: InsightsAnswer }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="insight" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Each day</h2>
      <button
        type="button"
        className="button button--small"
        aria-expanded={open}
        aria-controls={`${id}-days`}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide the days' : `Show the ${answer.days.length} days`}
      </button>
      <div id={`${id}-days`} hidden={!open}>
        {open && (
          <ScrollTable
            title="Each day"
            columns={['Day', 'Visits', 'Chairs booked', 'Attended', 'No-shows', 'Cancelled', 'Moved', 'Taken']}
            rows={answer.days.map((day) => [
              <Link key="day" href={`/dashboard/schedule?date=${day.date}`}>
                {format(parseISO(day.date), 'EEE, MMM d, yyyy')}
              </Link>,
              day.visits,
              percent(day.bookedMinutes, day.openMinutes),
              day.attended,
              day.noShows,
              day.cancelled,
              day.moved,
              dollars(day.revenue),
            ])}
          />
        )}
      </div>
    </section>
  );
}

/**
 * docs/product-admin.md#insights (/dashboard/insights, admin): the practice at a glance over a range of
 * days: key figures, how full the chairs were by weekday and hour, each doctor and chair, what was
 * lost to cancellations and no-shows, and revenue by week; each chart with a table and a CSV.
 */
export function InsightsPage() {
  const ids = useId();
  const today = isoDay(clinicToday());
  const [range, setRange] = useState({ from: isoDay(addDays(parseISO(today), -27)), to: today });
  const [draft, setDraft] = useState(range);
  const { data, error, isLoading } = useInsights(range.from, range.to);

  function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft.from && draft.to) setRange(draft);
  }
  const preset = (from: string, to: string) => {
    setDraft({ from, to });
    setRange({ from, to });
  };

  return (
    <section className="dashboard-page insights" aria-labelledby={`${ids}-title`} aria-busy={isLoading || undefined}>
      <h1 id={`${ids}-title`}>Insights</h1>
      <form className="insights__range" onSubmit={handleSubmit}>
        {(['from', 'to'] as const).map((end) => (
          <div className="field" key={end}>
            <label htmlFor={`${ids}-${end}`}>{end === 'from' ? 'From' : 'To'}</label>
            <input
              id={`${ids}-${end}`}
              type="date"
              required
              value={draft[end]}
              onChange={(e) => setDraft({ ...draft, [end]: e.target.value })}
            />
          </div>
        ))}
        <button type="submit" className="button button--primary">
          Show
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => preset(isoDay(addDays(parseISO(today), -27)), today)}
        >
          Last 4 weeks
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => preset(isoDay(addDays(parseISO(today), -364)), today)}
        >
          Last 12 months
        </button>
      </form>
      {error && (
        <p role="alert" className="form-error">
          The figures could not be loaded: {errorText(error)}
        </p>
      )}
      {!data && !error && <Spinner label="Loading the figures" />}
      {data && (
        <>
          <p className="muted">
            {format(parseISO(data.from), 'MMM d, yyyy')} to {format(parseISO(data.to), 'MMM d, yyyy')}, on the clinic’s
            calendar ({data.timeZone}). Each visit counts on its day; bookings made count on the day they were made.
          </p>
          <KeyFigures answer={data} />
          <Charts answer={data} />
          <Days answer={data} />
        </>
      )}
    </section>
  );
}
