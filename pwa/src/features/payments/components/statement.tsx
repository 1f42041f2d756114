import { Spinner } from '../../../components/spinner.tsx';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { balanceText } from '../../../lib/payment-rules.ts';
import { useStatement } from '../api/cards.ts';
import { CardOnFile } from './card-on-file.tsx';
import '../payments.css';
import { useLanguage } from '../../../lib/i18n.tsx';

/**
 * docs/product-payments.md#statement: the account's card on file, and what each person in it was charged,
 * paid and refunded, each line with the running balance; printable.
 */
export function PaymentsAndCards({ email, name, online }: { email: string; name: string; online: boolean }) {
  const { data: statement, error } = useStatement(email);
  const words = useLanguage();
  return (
    <section className="statement" aria-labelledby="statement-title">
      <h2 id="statement-title">{words.t('statement.title')}</h2>
      <CardOnFile email={email} name={name} online={online} removable />
      {!statement ? (
        error ? (
          <p role="alert" className="form-error">
            {words.t('statement.loadFailed', { reason: errorText(error, words.t) })}
          </p>
        ) : (
          <Spinner label={words.t('statement.loading')} />
        )
      ) : (
        <>
          <p className="statement__balance">
            {words.t('statement.balance')} <strong>{balanceText(statement.balance, words)}</strong>
          </p>
          {statement.people
            .filter((person) => person.lines.length > 0)
            .map((person) => (
              <table key={person.patientId} className="statement__table">
                <caption>
                  {person.name}: {balanceText(person.balance, words)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{words.t('booking.date')}</th>
                    <th scope="col">{words.t('booking.what')}</th>
                    <th scope="col">{words.t('statement.amount')}</th>
                    <th scope="col">{words.t('statement.balanceColumn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {person.lines.map((line, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a statement's lines have no id; their order is fixed.
                    <tr key={index}>
                      <td>{clinicMomentText(line.at, words.locale)}</td>
                      <td>{words.t('statement.line', { kind: line.kind, description: line.description })}</td>
                      <td>
                        {line.kind === 'payment' ? '−' : ''}
                        {words.format.price(line.amount)}
                      </td>
                      <td>{words.format.price(line.balance)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          {statement.people.some((person) => person.lines.length > 0) && (
            <button type="button" className="button button--small statement__print" onClick={() => window.print()}>
              {words.t('statement.print')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
