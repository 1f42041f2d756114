import { Fragment } from 'react';

/**
 * An email address that may wrap after its @ and before its dots when the column is narrow (a
 * phone), never inside a word: "desk-4821@" / "example" / ".com".
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/([@.])/);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in their order.
        <Fragment key={i}>
          {part === '.' && <wbr />}
          {part}
          {part === '@' && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
