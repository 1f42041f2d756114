// API paths the entry requests before the app has loaded (early-data.ts), so it names no other module; the
// pages that load them use the same (get-my-bookings.ts; cache-keys.ts's bookingKey).

/** GET /api/bookings?email=: a patient's bookings (My Appointments). */
export const myBookingsPath = (email: string) => `/bookings?email=${encodeURIComponent(email)}`;

/** GET /api/bookings/:id: one booking, as the payment page loads it. */
export const bookingPath = (id: string) => `/bookings/${encodeURIComponent(id)}`;
