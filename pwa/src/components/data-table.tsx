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
 * A table of rows defined by its columns, scrolling sideways when it is wider than the screen. Each
 * cell carries its column's header in `data-label`, for a feature's CSS that stacks rows on phones.
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, className }: DataTableProps<Row>) {
  return (
    <div className="table-scroll">
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
              {columns.map(({ header, cell, rowHeader, className: cellClass }) =>
                rowHeader ? (
                  <th key={header} scope="row" className={cellClass}>
                    {cell(row, index)}
                  </th>
                ) : (
                  <td key={header} className={cellClass} data-label={header}>
                    {cell(row, index)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
