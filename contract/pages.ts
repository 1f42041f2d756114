// How many rows a page of a paged list holds: plain numbers, free of the schemas, so the PWA can
// import them without bringing valibot into the browser.

/** GET /api/users?q=&page=: users a page. */
export const USERS_PAGE_SIZE = 50;

/** GET /api/bookings/history?page=: past and cancelled visits a page. */
export const HISTORY_PAGE_SIZE = 20;
