const formats = new Map<string, Intl.NumberFormat>();

/**
 * A price in dollars as the clinic writes it in `locale`: "$80", or "$99.50" when it has cents (en-US);
 * "80 US$" (es). `withCents`: always with them, as an amount paid or refunded is ("$150.00").
 */
export function formatPrice(dollars: number, locale = 'en-US', withCents = false): string {
  const cents = withCents || !Number.isInteger(dollars) ? 2 : 0;
  const key = `${locale} ${cents}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: cents });
    formats.set(key, format);
  }
  return format.format(dollars);
}
