import { afterEach, describe, expect, it, vi } from 'vitest';

// The clinic's place is the Worker's configuration alone: every page it serves carries it
// (worker/src/clinic/clinic-info.ts), and the calendar reads it as its modules load.
function serve(block: string) {
  document.getElementById('clinic-info')?.remove();
  document.head.insertAdjacentHTML('beforeend', `<script id="clinic-info" type="application/json">${block}</script>`);
  vi.resetModules();
}

afterEach(() => {
  document.getElementById('clinic-info')?.remove();
  vi.resetModules();
});

describe('the clinic’s time zone and booking horizon', () => {
  it('come from the page the Worker served', async () => {
    serve('{"name":"Clínica Sol","timeZone":"Europe/Madrid","bookingHorizonDays":30}');
    expect((await import('./clinic-time-zone.ts')).CLINIC_TIME_ZONE).toBe('Europe/Madrid');
    expect((await import('./clinic-calendar.ts')).BOOKING_HORIZON_DAYS).toBe(30);
  });

  it('are the seed clinic’s where the page carries none, or nonsense', async () => {
    serve('{"timeZone":"Mars/Olympus_Mons","bookingHorizonDays":"soon"}');
    expect((await import('./clinic-time-zone.ts')).CLINIC_TIME_ZONE).toBe('America/New_York');
    expect((await import('./clinic-calendar.ts')).BOOKING_HORIZON_DAYS).toBe(60);
    serve('not json');
    expect((await import('./clinic-time-zone.ts')).CLINIC_TIME_ZONE).toBe('America/New_York');
  });
});
