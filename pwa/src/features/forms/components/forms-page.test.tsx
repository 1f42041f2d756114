import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BookingForm } from '../../../../../contract/forms.ts';
import { toQuestionnaire } from '../../../../../contract/questionnaire.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { sharedOutbox } from '../../../lib/outbox.ts';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { describeRequest, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';

const history: BookingForm = {
  _id: 'medical-history',
  title: 'Medical history',
  status: 'expired',
  questionnaire: toQuestionnaire('medical-history', 2, 'Medical history', [
    {
      linkId: 'penicillin',
      text: 'Are you allergic to penicillin?',
      type: 'boolean',
      required: true,
      alert: 'Penicillin allergy',
    },
    { linkId: 'medicines', text: 'Which medicines do you take?', type: 'text', required: false },
    {
      linkId: 'smoking',
      text: 'Do you smoke?',
      type: 'choice',
      required: false,
      options: [
        { code: 'never', display: 'Never' },
        { code: 'current', display: 'Yes' },
      ],
    },
    { linkId: 'last-visit', text: 'When did you last see a dentist?', type: 'date', required: false },
  ]),
  answers: { penicillin: true, medicines: 'Ibuprofen', smoking: 'never' },
  answeredAt: '2025-10-01T10:00:00.000Z',
  alerts: ['Penicillin allergy'],
  patientAge: null,
};
const consent: BookingForm = {
  _id: 'consent',
  title: 'Consent to root canal treatment',
  status: 'missing',
  questionnaire: toQuestionnaire('consent', 1, 'Consent to root canal treatment', [
    { linkId: 'understood', text: 'I understand the treatment.', type: 'boolean', required: true },
    { linkId: 'signature', text: 'Type your full name to sign', type: 'signature', required: true },
  ]),
  answers: null,
  answeredAt: null,
  alerts: [],
  patientAge: null,
};

let puts: { path: string; key: string | null; body: unknown }[];
let network: 'up' | 'down';

let formsAnswer: BookingForm[];
let bookingAnswer: Record<string, string>;

beforeEach(() => {
  formsAnswer = [history, consent];
  bookingAnswer = {
    patientName: 'Pat Patient',
    treatment: 'Root Canal Treatment',
    appointmentDate: 'Dec 4, 2026',
    slot: '01.30 PM - 03.00 PM',
  };
  puts = [];
  network = 'up';
  stubFetch(async (request) => {
    if (network === 'down') throw new TypeError('Failed to fetch');
    const call = describeRequest(request);
    if (call === 'GET /api/bookings/b-1/forms') return json(formsAnswer);
    if (call === 'GET /api/bookings/b-1') return json(bookingAnswer);
    if (request.method === 'PUT') {
      puts.push({
        path: new URL(request.url).pathname,
        key: request.headers.get('Idempotency-Key'),
        body: await request.json(),
      });
      return json({ acknowledged: true, insertedId: 'r-1', status: 'filled', alerts: [] });
    }
    return json({ isAdmin: false });
  });
  fakeFirebase.signInAs('patient@clinic.test', 'Pat Patient');
  storeSession('patient@clinic.test');
});

async function openForms() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/forms/b-1' });
  await screen.findByRole('heading', { level: 1, name: 'Forms for your visit' });
  return user;
}

/** The seed's medical history (its conditions: sex and smoking from 12, pregnancy for a female patient). */
const conditional = (patientAge: number | null): BookingForm => ({
  ...history,
  status: 'missing',
  answers: null,
  answeredAt: null,
  alerts: [],
  patientAge,
  questionnaire: toQuestionnaire('medical-history', 3, 'Medical history', [
    { linkId: 'penicillin', text: 'Are you allergic to penicillin?', type: 'boolean', required: true },
    {
      linkId: 'sex',
      text: 'Sex assigned at birth',
      type: 'choice',
      required: false,
      options: [
        { code: 'female', display: 'Female' },
        { code: 'male', display: 'Male' },
      ],
      shownWhen: { minAge: 12 },
    },
    {
      linkId: 'pregnant',
      text: 'Are you pregnant, or could you be?',
      type: 'boolean',
      required: false,
      shownWhen: { question: 'sex', answer: 'female' },
    },
    { linkId: 'smoking', text: 'Do you smoke?', type: 'boolean', required: false, shownWhen: { minAge: 12 } },
  ]),
});

describe('Forms for a visit', () => {
  it('asks an 8-year-old no adult questions, and an adult about pregnancy only once she says she is female', async () => {
    formsAnswer = [conditional(8)];
    bookingAnswer = { ...bookingAnswer, patientName: 'Leo Patient' };
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/forms/b-1' });
    const child = within(await screen.findByRole('region', { name: /^Medical history/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'Forms for Leo Patient' })).toBeTruthy();
    expect(child.queryByText('Do you smoke?')).toBeNull();
    expect(child.queryByText('Sex assigned at birth')).toBeNull();
    expect(child.queryByText('Are you pregnant, or could you be?')).toBeNull();
    await user.click(child.getByRole('radio', { name: 'No' }));
    await user.click(child.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts.map((p) => p.body)).toEqual([{ answers: { penicillin: false } }]));
    expect(screen.getByRole('link', { name: 'Back to My Appointments' }).getAttribute('href')).toBe('/dashboard');
  });

  it('asks an adult whose age the clinic does not know the adult questions, pregnancy only after Female', async () => {
    formsAnswer = [conditional(null)];
    const user = await openForms();
    const form = within(await screen.findByRole('region', { name: /^Medical history/ }));
    expect(form.getByText('Do you smoke?')).toBeTruthy();
    expect(form.queryByText('Are you pregnant, or could you be?')).toBeNull();
    await user.click(
      within(form.getByRole('group', { name: 'Sex assigned at birth' })).getByRole('radio', { name: 'Female' }),
    );
    expect(form.getByText('Are you pregnant, or could you be?')).toBeTruthy();
  });

  it('labels every field for a screen reader, pre-fills last year’s answers and asks to confirm them', async () => {
    const user = await openForms();
    const form = within(await screen.findByRole('region', { name: /^Medical history/ }));
    expect(form.getByText('To renew')).toBeTruthy();
    expect(form.getByText(/Your answers are over a year old/)).toBeTruthy();
    const penicillin = form.getByRole('group', { name: 'Are you allergic to penicillin? (required)' });
    expect(within(penicillin).getByRole<HTMLInputElement>('radio', { name: 'Yes' }).checked).toBe(true);
    expect(form.getByLabelText<HTMLTextAreaElement>('Which medicines do you take?').value).toBe('Ibuprofen');
    expect(
      within(form.getByRole('group', { name: 'Do you smoke?' })).getByRole<HTMLInputElement>('radio', { name: 'Never' })
        .checked,
    ).toBe(true);
    expect(form.getByLabelText<HTMLInputElement>('When did you last see a dentist?').type).toBe('date');
    await user.click(form.getByRole('button', { name: 'Confirm these answers' }));
    expect(await form.findByText('Saved: the clinic has your answers.')).toBeTruthy();
    expect(puts).toEqual([
      {
        path: '/api/bookings/b-1/forms/medical-history',
        key: expect.stringMatching(/^[0-9a-f-]{36}$/),
        body: { answers: { penicillin: true, medicines: 'Ibuprofen', smoking: 'never' } },
      },
    ]);
  });

  it('names the required question left out, and signs with the typed name', async () => {
    const user = await openForms();
    const form = within(await screen.findByRole('region', { name: /^Consent to root canal treatment/ }));
    await user.click(form.getByRole('radio', { name: 'Yes' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByRole('alert').textContent).toBe('Please answer “Type your full name to sign”');
    const signature = form.getByLabelText('Type your full name to sign (required)');
    expect(document.activeElement).toBe(signature);
    expect(signature.getAttribute('aria-describedby')).toBeTruthy();
    await user.type(signature, 'Pat Patient');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(puts.map((p) => p.body)).toEqual([{ answers: { understood: true, signature: 'Pat Patient' } }]),
    );
  });

  it('keeps the answers on the phone when the network fails, and says they will be sent', async () => {
    const user = await openForms();
    const form = within(await screen.findByRole('region', { name: /^Consent to root canal treatment/ }));
    await user.click(form.getByRole('radio', { name: 'Yes' }));
    await user.type(form.getByLabelText('Type your full name to sign (required)'), 'Pat Patient');
    network = 'down';
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Saved on this phone, will be sent when you are back online.')).toBeTruthy();
    const [queued] = await sharedOutbox().entries();
    expect(queued).toMatchObject({ path: '/bookings/b-1/forms/consent', method: 'PUT', state: 'queued' });
    expect(JSON.parse(queued?.body ?? '{}')).toEqual({ answers: { understood: true, signature: 'Pat Patient' } });
  });
});
