/** A price in dollars as the clinic writes it: "$80", or "$99.50" when it has cents. */
export function formatPrice(dollars: number): string {
  return `$${Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2)}`;
}
