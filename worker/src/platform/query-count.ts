/**
 * Counts the D1 round trips a request makes (a batch is one), reported in the Server-Timing
 * header so the benchmark and operators can see that a page costs one query, not a scan loop.
 */
export function countQueries(db: D1Database): { db: D1Database; count: () => number } {
  let count = 0;
  const originals = new WeakMap<object, D1PreparedStatement>();
  const unwrap = (statement: D1PreparedStatement) => originals.get(statement) ?? statement;

  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'bind') return (...args: unknown[]) => wrap(value.apply(target, args) as D1PreparedStatement);
        if (property === 'first' || property === 'all' || property === 'run' || property === 'raw') {
          return (...args: unknown[]) => {
            count += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };

  const counted = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'prepare') return (sql: string) => wrap(target.prepare(sql));
      if (property === 'batch') {
        return (statements: D1PreparedStatement[]) => {
          count += 1;
          return target.batch(statements.map(unwrap));
        };
      }
      if (property === 'exec') {
        return (sql: string) => {
          count += 1;
          return target.exec(sql);
        };
      }
      return value.bind(target);
    },
  });
  return { db: counted, count: () => count };
}
