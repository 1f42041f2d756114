import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';

type Policy = {
  freeCancellationHours: number;
  rescheduleCutoffHours: number;
  noShowFee: number;
  lateCancelFee: number;
};
let policy: Policy;
let puts: unknown[];
let answerPut: (body: Policy) => Response;
let messages: Record<string, unknown>;
let messagePuts: unknown[];
let dead: { seq: number; type: string; what: string; at: string; failedAt: string; attempts: number }[];
let replays: string[];

beforeEach(() => {
  policy = { freeCancellationHours: 24, rescheduleCutoffHours: 12, noShowFee: 0, lateCancelFee: 0 };
  puts = [];
  messages = {
    clinicName: 'Dental Clinic',
    clinicAddress: '1 Main Street',
    clinicPhone: '+1 555 0100',
    secondReminder: false,
    offerHoldMinutes: 30,
    paySoonHours: 6,
    recallSteps: [-14, 0, 30],
    doctorFeedNames: false,
  };
  messagePuts = [];
  dead = [];
  replays = [];
  answerPut = (body) => {
    policy = body;
    return json({ acknowledged: true, message: 'Cancellation policy saved', ...policy });
  };
  stubFetch(async (request) => {
    const call = describeRequest(request);
    if (call === 'GET /api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (call === 'GET /api/clinic/policy')
      return json({ ...policy, unpaidHoldHours: 24, unpaidHoldHoursBeforeStart: 12 });
    if (call === 'GET /api/messages/settings') return json(messages);
    if (call === 'GET /api/events/dead') return json(dead);
    if (call.startsWith('POST /api/events/dead/')) {
      replays.push(call);
      dead = [];
      return json({ acknowledged: true, message: 'Sent again' });
    }
    if (call === 'PUT /api/messages/settings') {
      const body = (await request.json()) as Record<string, unknown>;
      messagePuts.push(body);
      messages = { ...messages, ...body };
      return json(messages);
    }
    if (call === 'GET /api/clinic') return json({ name: messages.clinicName, address: '', phone: '' });
    if (call === 'PUT /api/clinic/policy') {
      const body = (await request.json()) as Policy;
      puts.push(body);
      return answerPut(body);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openSettings() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/settings' });
  await screen.findByRole('heading', { level: 1, name: 'Clinic settings' });
  const field = await screen.findByLabelText<HTMLInputElement>(
    'Free cancellation until (hours before the appointment)',
  );
  const cutoff = screen.getByLabelText<HTMLInputElement>('Online rescheduling until (hours before the appointment)');
  return { user, field, cutoff };
}

describe('Clinic settings: the cancellation policy', () => {
  it('shows the current window and saves a new one', async () => {
    const { user, field, cutoff } = await openSettings();
    expect(field.value).toBe('24');
    expect(cutoff.value).toBe('12');
    await user.clear(field);
    await user.type(field, '48');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 48, rescheduleCutoffHours: 12, noShowFee: 0, lateCancelFee: 0 }]);
  });

  it('saves the reschedule cutoff beside the cancellation window', async () => {
    const { user, cutoff } = await openSettings();
    await user.clear(cutoff);
    await user.type(cutoff, '6');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 24, rescheduleCutoffHours: 6, noShowFee: 0, lateCancelFee: 0 }]);
    expect(cutoff.value).toBe('6');
  });

  it('says what is wrong before asking the server, and shows the server’s refusal', async () => {
    const { user, field } = await openSettings();
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a whole number, 0 or more, in each field');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toEqual([]);

    answerPut = () =>
      json({ acknowledged: false, message: 'freeCancellationHours must be at most 720 (30 days)' }, 400);
    await user.type(field, '1000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('freeCancellationHours must be at most 720 (30 days)'),
    );
    expect(puts).toEqual([{ freeCancellationHours: 1000, rescheduleCutoffHours: 12, noShowFee: 0, lateCancelFee: 0 }]);
  });
});

describe('Clinic settings: fees', () => {
  it('saves the missed-appointment and late-cancellation fees beside the windows', async () => {
    const { user } = await openSettings();
    const noShow = screen.getByLabelText<HTMLInputElement>('Missed-appointment fee (dollars, 0 for none)');
    const late = screen.getByLabelText<HTMLInputElement>('Late-cancellation fee (dollars, 0 for none)');
    expect([noShow.value, late.value]).toEqual(['0', '0']);
    await user.clear(noShow);
    await user.type(noShow, '40');
    await user.clear(late);
    await user.type(late, '25');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Cancellation policy saved')).toBe('success');
    expect(puts).toEqual([{ freeCancellationHours: 24, rescheduleCutoffHours: 12, noShowFee: 40, lateCancelFee: 25 }]);
  });
});

describe('Clinic settings: messages', () => {
  it('shows how the clinic signs its mails, the second reminder, the offer hold and the pay-soon mail, and saves them', async () => {
    const { user } = await openSettings();
    const form = within(screen.getByRole('form', { name: 'Messages' }));
    expect(form.getByLabelText<HTMLInputElement>('Clinic name').value).toBe('Dental Clinic');
    expect(form.getByLabelText<HTMLInputElement>('Send a second reminder 2 hours before').checked).toBe(false);
    const hold = form.getByLabelText<HTMLInputElement>('A waitlist offer holds the time for (minutes)');
    expect(hold.value).toBe('30');

    await user.clear(form.getByLabelText('Phone'));
    await user.type(form.getByLabelText('Phone'), '+1 555 0199');
    await user.click(form.getByLabelText('Send a second reminder 2 hours before'));
    await user.clear(hold);
    await user.type(hold, '120');
    const recall = form.getByLabelText('Recall messages go (days from the due date)');
    await user.clear(recall);
    await user.type(recall, '30, -7');
    const paySoon = form.getByLabelText<HTMLInputElement>('Remind to pay before the deadline (hours)');
    expect(paySoon.value).toBe('6');
    await user.clear(paySoon);
    await user.type(paySoon, '4');
    await user.click(
      form.getByRole('checkbox', { name: 'Doctors’ calendar feeds show the treatment and the patient’s name' }),
    );
    await user.click(form.getByRole('button', { name: 'Save messages' }));
    expect(await findToast('Message settings saved')).toBe('success');
    expect(messagePuts).toEqual([
      {
        clinicName: 'Dental Clinic',
        clinicAddress: '1 Main Street',
        clinicPhone: '+1 555 0199',
        secondReminder: true,
        doctorFeedNames: true,
        offerHoldMinutes: 120,
        paySoonHours: 4,
        recallSteps: [-7, 30],
      },
    ]);
  });

  it('says what is wrong before asking the server', async () => {
    const { user } = await openSettings();
    const form = within(screen.getByRole('form', { name: 'Messages' }));
    const hold = form.getByLabelText('A waitlist offer holds the time for (minutes)');
    await user.clear(hold);
    await user.type(hold, '2');
    await user.click(form.getByRole('button', { name: 'Save messages' }));
    expect(form.getByRole('alert').textContent).toBe('Enter how long an offer is held: 5 to 1440 minutes');
    await user.clear(form.getByLabelText('Clinic name'));
    await user.click(form.getByRole('button', { name: 'Save messages' }));
    expect(form.getByRole('alert').textContent).toBe('Enter the clinic’s name, address and phone');
    expect(messagePuts).toEqual([]);
  });

  it('lists the changes whose mails could not be sent, and sends one again', async () => {
    dead = [
      {
        seq: 41,
        type: 'booking.placed',
        what: 'Teeth Cleaning for Jamie Patient on Dec 3, 2026 was booked',
        at: '2026-11-28T15:00:00.000Z',
        failedAt: '2026-11-28T16:00:00.000Z',
        attempts: 11,
      },
    ];
    const { user } = await openSettings();
    const section = within(await screen.findByRole('region', { name: 'Messages that could not be sent' }));
    expect(section.getByText('Teeth Cleaning for Jamie Patient on Dec 3, 2026 was booked')).toBeTruthy();
    await user.click(
      section.getByRole('button', { name: 'Send again: Teeth Cleaning for Jamie Patient on Dec 3, 2026 was booked' }),
    );
    expect(await findToast('Sent again')).toBe('success');
    expect(replays).toEqual(['POST /api/events/dead/41/replay']);
    await waitFor(() =>
      expect(section.getByText('Everything was sent: mails, texts and waitlist offers.')).toBeTruthy(),
    );
  });
});
