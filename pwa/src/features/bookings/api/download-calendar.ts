import { ACCESS_TOKEN_KEY, ApiError, exchangeIdToken } from '../../../lib/api.ts';

const storedToken = () => localStorage.getItem(ACCESS_TOKEN_KEY);

/** A fresh access token from the Firebase session (what api() does on a 401), or null when signed out. */
async function renewedToken(): Promise<string | null> {
  try {
    const { currentUser } = await import('../../../lib/firebase.ts');
    const user = await currentUser();
    if (!user?.email) return null;
    return await exchangeIdToken(user.email, await user.getIdToken(true));
  } catch (cause) {
    console.error(cause);
    return null;
  }
}

async function failure(response: Response): Promise<ApiError> {
  let message = response.statusText || `Request failed with status ${response.status}`;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') message = body.message;
  } catch {
    // not JSON: keep the status text
  }
  return new ApiError(response.status, message, response.statusText);
}

/**
 * GET /api/bookings/:id/calendar.ics (owner only) with the access token. The JSON api() helper cannot
 * read a calendar file, so this call sends the token itself and renews it once on a 401, as api() does.
 */
export async function fetchBookingCalendar(id: string): Promise<Blob> {
  const path = `/api/bookings/${encodeURIComponent(id)}/calendar.ics`;
  const request = async (token: string | null) => {
    try {
      return await fetch(path, {
        headers: { Accept: 'text/calendar', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network request failed');
    }
  };

  const sent = storedToken();
  let response = await request(sent);
  if (response.status === 401) {
    const stored = storedToken();
    const fresh = stored && stored !== sent ? stored : await renewedToken();
    if (fresh) response = await request(fresh);
  }
  if (!response.ok) throw await failure(response);
  return response.blob();
}

/** Hands a file to the browser's downloads: a temporary <a download> on an object URL. */
export function saveFile(file: Blob, fileName: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start reading the file only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a booking as appointment-{yyyy-MM-dd}.ics. */
export async function downloadBookingCalendar(booking: { _id: string; date: string }): Promise<void> {
  saveFile(await fetchBookingCalendar(booking._id), `appointment-${booking.date}.ics`);
}
