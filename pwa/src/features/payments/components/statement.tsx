import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { balanceText } from '../../../lib/payment-rules.ts';
import { useStatement } from '../api/cards.ts';
import { CardOnFile } from './card-on-file.tsx';
import '../payments.css';

const KIND_TEXT = { charge: 'Visit', fee: 'Fee', payment: 'Paid', refund: 'Refunded' } as const;

/**
 * docs/product-payments.md#statement: the account's card on file, and what each person in it was charged,
 * paid and refunded, each line with the running balance; printable.
 */
export function PaymentsAndCards({ email, name, online }: { email: string; name: string; online: boolean }) {
  const { data: statement, error } = useStatement(email);
  return (
    <section className="statement" aria-labelledby="statement-title">
      <h2 id="statement-title">Payments and cards</h2>
      <CardOnFile email={email} name={name} online={online} removable />
      {!statement ? (
        error ? (
          <p role="alert" className="form-error">
            Your statement could not be loaded: {errorText(error)}
          </p>
        ) : (
          <Spinner label="Loading your statement" />
        )
      ) : (
        <>
          <p className="statement__balance">
            Balance: <strong>{balanceText(statement.balance)}</strong>
          </p>
          {statement.people
            .filter((person) => person.lines.length > 0)
            .map((person) => (
              <table key={person.patientId} className="statement__table">
                <caption>
                  {person.name}: {balanceText(person.balance)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">What</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Balance</th>
                  </tr>
                </thead>
                <tbody>
                  {person.lines.map((line, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a statement's lines have no id; their order is fixed.
                    <tr key={index}>
                      <td>{clinicMomentText(line.at)}</td>
                      <td>
                        {KIND_TEXT[line.kind]}: {line.description}
                      </td>
                      <td>
                        {line.kind === 'payment' ? '−' : ''}
                        {formatPrice(line.amount)}
                      </td>
                      <td>{formatPrice(line.balance)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          {statement.people.some((person) => person.lines.length > 0) && (
            <button type="button" className="button button--small statement__print" onClick={() => window.print()}>
              Print statement
            </button>
          )}
        </>
      )}
    </section>
  );
}
