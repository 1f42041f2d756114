import { ContactForm } from '../../features/contact/components/contact-form.tsx';
import { AppointmentCta } from '../../features/landing/components/appointment-cta.tsx';
import { Hero } from '../../features/landing/components/hero.tsx';
import { InfoCards } from '../../features/landing/components/info-cards.tsx';
import { OurDoctors } from '../../features/landing/components/our-doctors.tsx';
import { Services } from '../../features/landing/components/services.tsx';
import { Testimonials } from '../../features/reviews/components/testimonials.tsx';

/** The landing page: its sections, in order (docs/product-visitors.md#home-page). */
export function HomePage() {
  return (
    <>
      <Hero />
      <InfoCards />
      <Services />
      <OurDoctors />
      <AppointmentCta />
      <Testimonials />
      <ContactForm />
    </>
  );
}
