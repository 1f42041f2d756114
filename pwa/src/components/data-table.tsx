import type { ReactNode } from 'react';

/** One column: its header and what each row shows in it. The list of columns is the table's whole definition. */
export type Column<Row> = {
  header: string;
  /** The header is for screen readers only (say, 'Actions' over a column of buttons). */
  headerHidden?: boolean;
  cell(row: Row, index: number): ReactNode;
  /** The cell names its row (<th scope="row">), like the # column. */
  rowHeader?: boolean;
  className?: string;
};

/** The # column: the row's position, as the row's header. */
export const positionColumn: Column<unknown> = { header: '#', rowHeader: true, cell: (_row, index) => index + 1 };

type DataTableProps<Row> = {
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  /** Added to the table's own class, for a feature's column styles. */
  className?: string;
};

/**
 * A table of rows defined by its columns. Where its column of the page is narrow (a phone, a tablet) each
 * row shows as a card, each cell labelled by its header (styles.css), so no action is off-screen.
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, className }: DataTableProps<Row>) {
  return (
    <div className="data-table">
      <div className="data-table__frame">
        <table className={className ? `table ${className}` : 'table'}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map(({ header, headerHidden }) => (
                <th key={header} scope="col">
                  {headerHidden ? <span className="visually-hidden">{header}</span> : header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={rowKey(row)}>
                {columns.map(({ header, headerHidden, cell, rowHeader, className: cellClass }) => {
                  // The card layout shows the header before the cell (a CSS label, not read twice).
                  const label = headerHidden ? undefined : header;
                  return rowHeader ? (
                    <th key={header} scope="row" className={cellClass} data-label={label}>
                      {cell(row, index)}
                    </th>
                  ) : (
                    <td key={header} className={cellClass} data-label={label}>
                      {cell(row, index)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
