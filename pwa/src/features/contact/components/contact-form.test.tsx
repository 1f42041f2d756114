import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedOutbox } from '../../../lib/outbox.ts';
import { watchOutbox } from '../../../lib/watch-outbox.ts';
import { findToast, json, prerendered, renderWithProviders, stubFetch } from '../../../testing/test-utils.tsx';
import { ContactForm } from './contact-form.tsx';

let online: boolean;
let stopWatching = () => {};

beforeEach(() => {
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
});

afterEach(() => stopWatching());

const message = {
  user_name: 'Ada Lovelace',
  user_email: 'ada@example.com',
  subject: 'Opening hours',
  message: 'Are you open on Sundays?',
};

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Name'), message.user_name);
  await user.type(screen.getByLabelText('Email'), message.user_email);
  await user.type(screen.getByLabelText('Subject'), message.subject);
  await user.type(screen.getByLabelText('Your message'), message.message);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement;

describe('contact form', () => {
  it('takes no typing and no submit while prerendered, until its code has taken the page over', async () => {
    const { container, hydrate } = prerendered(<ContactForm />);
    const fields = () => [...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')];
    const submit = () => container.querySelector('button') as HTMLButtonElement;
    expect(fields().map((f) => f.readOnly)).toEqual([true, true, true, true]);
    expect(submit().disabled).toBe(true);

    hydrate();
    expect(fields().map((f) => f.readOnly)).toEqual([false, false, false, false]);
    expect(submit().disabled).toBe(false);
  });

  it('has the spec field names with their limits', () => {
    renderWithProviders(<ContactForm />);
    expect(
      [field('Name'), field('Email'), field('Subject'), field('Your message')].map((f) => [
        f.name,
        f.maxLength,
        f.required,
      ]),
    ).toEqual([
      ['user_name', 100, true],
      ['user_email', 254, true],
      ['subject', 150, true],
      ['message', 5000, true],
    ]);
    expect(field('Email').type).toBe('email');
  });

  it('posts the message with an Idempotency-Key, disables Submit while sending, then confirms and resets', async () => {
    let answer: (response: Response) => void = () => {};
    const requests: Request[] = [];
    stubFetch((request) => {
      requests.push(request);
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);

    await fillAndSubmit(user);

    await waitFor(() => expect(requests).toHaveLength(1));
    const request = requests[0]!;
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/contact');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await request.clone().json()).toEqual(message);
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(true);

    answer(json({ acknowledged: true }, 201));

    expect(await screen.findByText('Your email sending success!')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect([field('Name'), field('Email'), field('Subject'), field('Your message')].map((f) => f.value)).toEqual([
      '',
      '',
      '',
      '',
    ]);
    expect(screen.queryByText('Your email sending error!')).toBeNull();
  });

  it('uses a new Idempotency-Key for each message', async () => {
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return json({ acknowledged: true }, 201);
    });
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);
    await fillAndSubmit(user);
    await waitFor(() => expect(field('Name').value).toBe(''));
    await fillAndSubmit(user);
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it.each([
    ['a 400 answer', () => json({ message: 'user_email must be a valid email' }, 400)],
    ['a 500 answer', () => json({ message: 'Internal error' }, 500)],
  ])('reports an error and keeps the input after %s', async (_, respond) => {
    stubFetch(respond);
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);

    await fillAndSubmit(user);

    expect(await screen.findByText('Your email sending error!')).toBeTruthy();
    expect(screen.queryByText('Your email sending success!')).toBeNull();
    expect(field('Name').value).toBe(message.user_name);
    expect((screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('queues the message when the network fails, under the key it was sent with, says so and resets the form', async () => {
    const keys: (string | null)[] = [];
    stubFetch((request) => {
      keys.push(request.headers.get('Idempotency-Key'));
      return Promise.reject(new TypeError('Failed to fetch'));
    });
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);

    await fillAndSubmit(user);

    expect(await findToast('You are offline. Your message will be sent when the connection is back.')).not.toBe(
      'error',
    );
    expect(screen.queryByText('Your email sending error!')).toBeNull();
    await waitFor(() => expect(field('Name').value).toBe(''));
    const queued = await sharedOutbox().entries();
    expect(queued.map((e) => [e.key, e.path, e.label, e.state, JSON.parse(e.body)])).toEqual([
      [keys[0], '/contact', 'Opening hours', 'queued', message],
    ]);
  });

  it('offline, queues the message the network refused, and sends it once when the connection is back', async () => {
    const requests: Request[] = [];
    stubFetch((request) => {
      if (!online) return Promise.reject(new TypeError('Failed to fetch'));
      requests.push(request);
      return json({ acknowledged: true, insertedId: 'c-1' }, 201);
    });
    stopWatching = watchOutbox(); // as start.tsx does at start-up
    online = false;
    window.dispatchEvent(new Event('offline'));
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);

    await fillAndSubmit(user);

    expect(await findToast('You are offline. Your message will be sent when the connection is back.')).not.toBe(
      'error',
    );
    await waitFor(() => expect(field('Your message').value).toBe(''));
    expect(requests).toEqual([]);
    const [queued] = await sharedOutbox().entries();

    online = true;
    window.dispatchEvent(new Event('online'));

    expect(await findToast('Your queued message was sent.')).toBe('success');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.get('Idempotency-Key')).toBe(queued!.key);
    expect(await requests[0]!.clone().json()).toEqual(message);
    expect(await sharedOutbox().entries()).toEqual([]);
  });

  it('sends at once while navigator.onLine says offline but the server answers (a loopback-only machine)', async () => {
    const requests: Request[] = [];
    stubFetch((request) => {
      requests.push(request);
      return json({ acknowledged: true, insertedId: 'c-1' }, 201);
    });
    online = false;
    const user = userEvent.setup();
    renderWithProviders(<ContactForm />);

    await fillAndSubmit(user);

    expect(await screen.findByText('Your email sending success!')).toBeTruthy();
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /api/contact']);
    expect(await sharedOutbox().entries()).toEqual([]);
  });
});
