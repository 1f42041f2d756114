import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
import type { NewDoctor } from '../api/add-doctor.ts';
import type { Doctor } from '../api/get-doctors.ts';

const SPECIALTIES = [
  { _id: 't1', name: 'Teeth Orthodontics' },
  { _id: 't2', name: 'Cosmetic Dentistry' },
  { _id: 't3', name: 'Teeth Cleaning' },
];
const PHOTO_URL = '/api/images/0123456789abcdef.png';

let requests: string[];
let uploads: File[];
let saved: NewDoctor[];
let doctors: Doctor[];
let answerUpload: () => Response | Promise<Response>;
let answerSave: (doctor: NewDoctor) => Response;

beforeEach(() => {
  requests = [];
  uploads = [];
  saved = [];
  doctors = [];
  answerUpload = () => json({ success: true, data: { url: PHOTO_URL } }, 201);
  answerSave = (doctor) => {
    doctors.push({
      _id: `d${doctors.length + 1}`,
      workingDays: [0, 1, 2, 3, 4, 5, 6],
      hours: { start: '09:00', end: '17:00' },
      weeklyHours: [],
      ...doctor,
    });
    return json({ acknowledged: true, insertedId: `d${doctors.length}` }, 201);
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    requests.push(describeRequest(request));
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/appointmentSpecialty') return json(SPECIALTIES);
    if (url.pathname === '/api/images' && request.method === 'POST') {
      expect(request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
      expect(request.headers.get('Authorization')).toBe('Bearer access:admin@clinic.test');
      const image = (await request.formData()).get('image');
      if (image instanceof File) uploads.push(image);
      return answerUpload();
    }
    if (url.pathname === '/api/doctors' && request.method === 'POST') {
      const doctor = (await request.json()) as NewDoctor;
      saved.push(doctor);
      return answerSave(doctor);
    }
    if (url.pathname === '/api/doctors' && request.method === 'GET') return json(doctors);
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

const png = (name = 'dr-ada.png', bytes = 64) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });
const writes = () => requests.filter((r) => r.startsWith('POST'));

async function openAddDoctor(options: Parameters<typeof userEvent.setup>[0] = {}) {
  const user = userEvent.setup(options);
  renderWithProviders(<AppRoutes />, { path: '/dashboard/add-doctors' });
  await screen.findByRole('heading', { level: 1, name: 'Add A Doctor' });
  await screen.findByRole('option', { name: 'Cosmetic Dentistry' });
  return user;
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, photo: File = png()) {
  await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email'), 'ada@clinic.test');
  await user.selectOptions(screen.getByLabelText('Specialty'), 'Cosmetic Dentistry');
  await user.upload(screen.getByLabelText('Photo'), photo);
}

describe('Add A Doctor page', () => {
  it('has labelled Name, Email, Specialty and Photo fields and an Add button', async () => {
    await openAddDoctor();
    expect((screen.getByLabelText('Name') as HTMLInputElement).type).toBe('text');
    expect((screen.getByLabelText('Email') as HTMLInputElement).type).toBe('email');
    const photo = screen.getByLabelText('Photo') as HTMLInputElement;
    expect(photo.type).toBe('file');
    expect(photo.accept).toBe('image/*');
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('starts the specialty on the disabled prompt and lists the specialties', async () => {
    await openAddDoctor();
    const select = screen.getByRole('combobox', { name: 'Specialty' }) as HTMLSelectElement;
    const options = [...select.options];
    expect(options.map((o) => o.textContent)).toEqual([
      'Please select a Specialty',
      'Teeth Orthodontics',
      'Cosmetic Dentistry',
      'Teeth Cleaning',
    ]);
    expect(options[0]!.disabled).toBe(true);
    expect(select.value).toBe('');
    expect(select.selectedOptions[0]?.textContent).toBe('Please select a Specialty');
  });

  it('shows every validation message and sends nothing when the form is empty', async () => {
    const user = await openAddDoctor();
    await user.click(screen.getByRole('button', { name: 'Add' }));

    for (const message of ['name is required', 'email is required', 'specialty is required', 'Photo is required']) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Specialty').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Photo').getAttribute('aria-invalid')).toBe('true');
    expect(writes()).toEqual([]);
  });

  it('refuses a file that is not an image before uploading anything', async () => {
    // applyAccept off: the file picker's "All files" or a drop bypasses accept="image/*".
    const user = await openAddDoctor({ applyAccept: false });
    await fillIn(user, new File(['just some notes'], 'notes.png', { type: 'text/plain' }));

    expect(await screen.findByText('Only JPEG, PNG, WebP, GIF or AVIF images are accepted')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Preview of the new doctor’s portrait' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Only JPEG, PNG, WebP, GIF or AVIF images are accepted')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('refuses a photo over 2 MB before uploading it', async () => {
    const user = await openAddDoctor();
    await fillIn(user, png('huge.png', 2 * 1024 * 1024 + 1));
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('The photo is larger than 2 MB')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('shows a preview of the chosen photo', async () => {
    const user = await openAddDoctor();
    await user.upload(screen.getByLabelText('Photo'), png());
    const preview = (await screen.findByRole('img', {
      name: 'Preview of the new doctor’s portrait',
    })) as HTMLImageElement;
    expect(preview.src).toMatch(/^blob:/);
  });

  it('uploads the photo, saves the doctor with its URL, toasts and goes to Manage Doctors', async () => {
    const user = await openAddDoctor();
    const photo = png();
    await fillIn(user, photo);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await findToast('success added a doctor')).toBe('success');
    expect(writes()).toEqual(['POST /api/images', 'POST /api/doctors']);
    expect(uploads.map((f) => [f.name, f.size])).toEqual([[photo.name, photo.size]]);
    expect(saved).toEqual([
      {
        name: 'Ada Lovelace',
        email: 'ada@clinic.test',
        specialty: 'Cosmetic Dentistry',
        image: PHOTO_URL,
        workingDays: [0, 1, 2, 3, 4, 5, 6],
        hours: { start: '09:00', end: '17:00' },
      },
    ]);
    await screen.findByRole('heading', { level: 1, name: 'Manage Doctors' });
    expect(window.location.pathname).toBe('/dashboard/manage-doctors');
    expect(await screen.findByRole('img', { name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('starts on every day, 09:00 to 17:00, and saves the working days and hours chosen', async () => {
    const user = await openAddDoctor();
    const days = screen.getByRole('group', { name: 'Working days' });
    expect(
      within(days)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual(Array(7).fill(true));
    expect((screen.getByLabelText('Starts at') as HTMLSelectElement).value).toBe('09:00');
    expect((screen.getByLabelText('Ends at') as HTMLSelectElement).value).toBe('17:00');

    await fillIn(user);
    await user.click(within(days).getByRole('checkbox', { name: 'Saturday' }));
    await user.click(within(days).getByRole('checkbox', { name: 'Sunday' }));
    await user.selectOptions(screen.getByLabelText('Starts at'), '08:30');
    await user.selectOptions(screen.getByLabelText('Ends at'), '14:00');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await findToast('success added a doctor')).toBe('success');
    expect(saved[0]).toMatchObject({ workingDays: [1, 2, 3, 4, 5], hours: { start: '08:30', end: '14:00' } });
  });

  it('asks for at least one working day and an end after the start, and sends nothing until then', async () => {
    const user = await openAddDoctor();
    await fillIn(user);
    for (const box of within(screen.getByRole('group', { name: 'Working days' })).getAllByRole('checkbox')) {
      await user.click(box);
    }
    await user.selectOptions(screen.getByLabelText('Starts at'), '17:00');
    await user.selectOptions(screen.getByLabelText('Ends at'), '09:00');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('choose at least one working day')).toBeTruthy();
    expect(screen.getByText('the end must be later than the start')).toBeTruthy();
    expect(screen.getByLabelText('Ends at').getAttribute('aria-invalid')).toBe('true');
    expect(writes()).toEqual([]);
  });

  it('shows "Adding…" on a disabled button while saving', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    answerUpload = async () => {
      await held;
      return json({ success: true, data: { url: PHOTO_URL } }, 201);
    };
    const user = await openAddDoctor();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    const busy = (await screen.findByRole('button', { name: 'Adding…' })) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    release();
    expect(await findToast('success added a doctor')).toBe('success');
  });

  it("shows the server's message when the upload is refused, and stays on the form", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerUpload = () => json({ message: 'Only JPEG, PNG, WebP, GIF or AVIF images are accepted' }, 415);
    const user = await openAddDoctor();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await findToast('Only JPEG, PNG, WebP, GIF or AVIF images are accepted')).toBe('error');
    expect(writes()).toEqual(['POST /api/images']);
    expect(window.location.pathname).toBe('/dashboard/add-doctors');
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
    // A refusal the page put in words is not an error of the app: the console stays clean.
    expect(logged).not.toHaveBeenCalled();
  });

  it("shows the server's message on a duplicate email, stays, and reuses the uploaded photo on retry", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerSave = () => json({ acknowledged: false, message: 'A doctor with this email already exists' }, 409);
    const user = await openAddDoctor();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await findToast('A doctor with this email already exists')).toBe('error');
    expect(writes()).toEqual(['POST /api/images', 'POST /api/doctors']);
    expect(window.location.pathname).toBe('/dashboard/add-doctors');
    expect(screen.queryByText('success added a doctor')).toBeNull();
    expect(logged).not.toHaveBeenCalled();

    answerSave = () => json({ acknowledged: true, insertedId: 'd9' }, 201);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'ada.l@clinic.test');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await findToast('success added a doctor')).toBe('success');
    expect(writes()).toEqual(['POST /api/images', 'POST /api/doctors', 'POST /api/doctors']);
    expect(saved[1]).toMatchObject({ email: 'ada.l@clinic.test', image: PHOTO_URL });
  });

  it('says so on the form when the specialties cannot be loaded', async () => {
    const fetchSpy = stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
      if (url.pathname === '/api/appointmentSpecialty') return json({ message: 'Service unavailable' }, 503);
      return json({ message: 'Not found' }, 404);
    });
    renderWithProviders(<AppRoutes />, { path: '/dashboard/add-doctors' });
    await screen.findByRole('heading', { level: 1, name: 'Add A Doctor' });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Service unavailable'));
    expect(fetchSpy).toHaveBeenCalled();
  });
});
