import type { MessageKey } from './en.ts';

/** French (vouvoiement, as a clinic writes to its patients). */
export const fr = {
  'greeting.named': 'Bonjour {name},',
  'greeting.anonymous': 'Bonjour,',
  'when.short': '{date} à {time}',
  'card.ending': '{brand} se terminant par {last4}',
  'detail.for': 'Pour',
  'detail.treatment': 'Soin',
  'detail.when': 'Quand',
  'detail.length': 'Durée',
  'detail.lengthValue': '{minutes, plural, one {# minute} other {# minutes}}',
  'detail.doctor': 'Dentiste',
  'detail.where': 'Où',
  'detail.amount': 'Montant',
  'detail.paid': 'Payé',
  'detail.transaction': 'Numéro de transaction',
  'detail.refunded': 'Remboursé',
  'link.myAppointments': 'Mes rendez-vous',
  'pay.deposit': '{deposit} (un acompte ; le reste à l’accueil)',
  'pay.by': 'Veuillez payer {amount} avant le {until}, sinon le créneau sera libéré pour d’autres patients.',
  'pay.link': 'Payer {amount}',
  forms:
    'Avant de venir, veuillez remplir {count, plural, one {le formulaire} other {les # formulaires}} dont votre visite a besoin (quelques minutes, sur votre téléphone, sans connexion) : {link}',
  'confirmation.subject': 'Réservé : {treatment} le {when}',
  'confirmation.intro': 'Votre rendez-vous chez {clinic} est réservé.',
  'confirmation.calendar': 'Le fichier de calendrier joint ajoute le rendez-vous à votre calendrier.',
  'reschedule.subject': 'Déplacé : {treatment} est maintenant le {when}',
  'reschedule.fromTo': 'Votre rendez-vous ({treatment}) a été déplacé du {before} au {after}.',
  'reschedule.to': 'Votre rendez-vous ({treatment}) a été déplacé au {after}.',
  'reschedule.calendar': 'Le fichier de calendrier joint contient la nouvelle heure.',
  'cancellation.subject': 'Annulé : {treatment} le {when}',
  'cancellation.subjectReleased': 'Libéré, non payé : {treatment} le {when}',
  'cancellation.releasedBy': 'Votre rendez-vous ({treatment}) a été libéré car il n’a pas été payé avant le {until}.',
  'cancellation.released': 'Votre rendez-vous ({treatment}) a été libéré car il n’a pas été payé à temps.',
  'cancellation.byClinic': 'La clinique a annulé votre rendez-vous ({treatment}).',
  'cancellation.byPatient': 'Vous avez annulé votre rendez-vous ({treatment}).',
  'cancellation.reason': 'Motif : {reason}',
  'cancellation.refundFollows': 'Votre paiement de {amount} vous sera remboursé.',
  'cancellation.bookAnother': 'Pour réserver un autre créneau, rendez-vous sur {url} ou appelez-nous au {phone}.',
  'cancellation.calendar': 'Le fichier de calendrier joint retire le rendez-vous de votre calendrier.',
  'receipt.subject': 'Reçu : {amount} pour {treatment}',
  'receipt.intro': 'Merci : nous avons reçu votre paiement pour votre rendez-vous ({treatment}).',
  'refund.subject': 'Remboursé : {amount} pour {treatment}',
  'refund.atDesk': 'Nous vous avons rendu {amount} pour votre rendez-vous ({treatment}) à l’accueil de la clinique.',
  'refund.toCard': 'Nous avons remboursé {amount} pour votre rendez-vous ({treatment}) sur la carte utilisée.',
  'refund.toNamedCard':
    'Nous avons remboursé {amount} pour votre rendez-vous ({treatment}) sur la carte utilisée ({card}).',
  'refund.banks': 'Les banques affichent généralement un remboursement sous 5 à 10 jours ouvrés.',
  'paySoon.subject': 'Payez bientôt : {treatment} le {when} est réservé jusqu’au {until}',
  'paySoon.notPaid': 'Votre rendez-vous ({treatment}) du {when} n’est pas encore payé.',
  'paySoon.callInstead': 'Pour garder le créneau sans payer en ligne, appelez-nous au {phone}.',
  'reminder.subject': 'Rappel : {treatment} {soon, select, 2h {dans 2 heures} other {demain}}, {when}',
  'reminder.intro':
    'Nous vous rappelons votre rendez-vous ({treatment}) {soon, select, 2h {dans 2 heures} other {demain}}, {when}.',
  'reminder.askAnswer': 'Dites-nous si vous venez : un seul geste ci-dessous, sans connexion.',
  'reminder.coming': 'Je viens',
  'reminder.callMe': 'Appelez-moi',
  'reminder.cancel': 'Annuler',
  'reminder.cannotCome':
    'Si vous ne pouvez pas venir, annulez ou appelez-nous au {phone}, pour qu’un autre patient puisse avoir le créneau.',
  'reminder.turnOff': 'Vous pouvez désactiver ces rappels dans Mes rendez-vous.',
  'sms.reminder':
    '{clinic} : rappel de votre visite le {when}. Répondez C pour confirmer, R pour être rappelé, X pour annuler. STOP pour ne plus recevoir de messages.',
  'sms.reminderLink':
    '{clinic} : rappel de votre visite le {when}. Répondez C pour confirmer, R pour être rappelé, X pour annuler (ou {link}). STOP pour ne plus recevoir de messages.',
  'sms.paySoon':
    '{clinic} : veuillez payer {amount} avant le {until} pour garder votre visite : {link} Répondez STOP pour ne plus recevoir de messages.',
  'sms.refundAtDesk':
    '{clinic} : nous vous avons rendu {amount} à l’accueil. Répondez STOP pour ne plus recevoir de messages.',
  'sms.refundToCard':
    '{clinic} : nous avons remboursé {amount} sur {card} ; les banques l’affichent sous 5 à 10 jours ouvrés. Répondez STOP pour ne plus recevoir de messages.',
  'sms.yourCard': 'votre carte',
  'sms.news': '{clinic} : il y a du nouveau sur votre visite. Voir {link}',
  'detail.fee': 'Frais',
  'detail.waived': 'Annulés',
  'detail.price': 'Prix',
  'detail.due': 'Échéance',
  'fee.name': '{kind, select, late_cancel {frais d’annulation tardive} other {frais de rendez-vous manqué}}',
  'fee.cardOnFile': 'votre carte enregistrée',
  'fee.chargedSubject': 'Prélevé : {amount}, {fee}',
  'fee.chargedIntro':
    'Nous avons prélevé les {fee} de {amount} pour votre rendez-vous ({treatment}) sur {card}, comme le prévoit la politique acceptée lors de la réservation.',
  'fee.mistake': 'Si vous pensez qu’il s’agit d’une erreur, appelez-nous au {phone}.',
  'fee.unpaidSubject': 'Veuillez régler les {fee} : {amount}',
  'fee.unpaidIntro':
    'Nous n’avons pas pu prélever les {fee} de {amount} pour votre rendez-vous ({treatment}) sur votre carte enregistrée.',
  'fee.unpaidIntroWhy':
    'Nous n’avons pas pu prélever les {fee} de {amount} pour votre rendez-vous ({treatment}) sur votre carte enregistrée : {why}.',
  'fee.payLater': 'Veuillez les régler avec le lien ci-dessous, ou à la clinique lors de votre prochaine visite.',
  'fee.paidSubject': 'Reçu : {amount}, {fee}',
  'fee.paidIntro': 'Merci : nous avons reçu {amount} pour les {fee} de votre rendez-vous ({treatment}).',
  'fee.waivedSubject': 'Annulés : {amount}, {fee}',
  'fee.waivedRefunded':
    'Nous avons annulé les {fee} de votre rendez-vous ({treatment}) et remboursé {amount} sur {card}.',
  'fee.waived': 'Nous avons annulé les {fee} de {amount} pour votre rendez-vous ({treatment}) : vous ne devez rien.',
  'stranded.subjectCall': 'Votre rendez-vous ({treatment}) du {when} : la clinique vous appellera',
  'stranded.introCall':
    'L’horaire de la clinique a changé et votre rendez-vous ({treatment}) devra peut-être être déplacé. Rien n’est annulé : la clinique vous appellera pour l’organiser.',
  'stranded.callFirst': 'Si vous préférez nous appeler d’abord, notre numéro est le {phone}.',
  'stranded.subjectNoPhone': 'Votre rendez-vous ({treatment}) du {when} : veuillez appeler la clinique',
  'stranded.introNoPhone':
    'L’horaire de la clinique a changé et votre rendez-vous ({treatment}) devra peut-être être déplacé. Rien n’est annulé, et nous vous gardons le créneau en attendant.',
  'stranded.noPhone':
    'Nous n’avons pas votre numéro : appelez-nous au {phone}, ou choisissez vous-même un autre créneau avec Reschedule, dans Mes rendez-vous.',
  'offerWithdrawn.subject': 'Le créneau proposé n’est plus disponible : {treatment} le {when}',
  'offerWithdrawn.intro':
    'L’horaire de la clinique a changé : le créneau que nous vous gardions, {when}, ne peut plus être réservé. Vous restez sur la liste d’attente.',
  'offer.subject': 'Un créneau se libère pour vous : {treatment} le {when}',
  'offer.intro': 'Un créneau que vous attendez est libre : {treatment}, {when}.',
  'offer.holding': 'Nous vous le gardons jusqu’au {until}. Ensuite, il passe au patient suivant.',
  'offer.link': 'Accepter ou refuser l’offre',
  'recall.subject': 'C’est l’heure de votre {treatment}',
  'recall.subjectFor': 'C’est l’heure du soin {treatment} de {patient}',
  'recall.lateSubject': 'Vous nous manquez : réservez votre {treatment}',
  'recall.lateSubjectFor': 'Vous nous manquez : réservez le soin {treatment} de {patient}',
  'recall.due': 'Votre prochain soin ({treatment}) est prévu le {due}.',
  'recall.dueFor': 'Le prochain soin ({treatment}) de {patient} est prévu le {due}.',
  'recall.late':
    'Votre soin ({treatment}) était prévu le {due}. Des visites régulières gardent les petits problèmes petits.',
  'recall.lateFor':
    'Le soin ({treatment}) de {patient} était prévu le {due}. Des visites régulières gardent les petits problèmes petits.',
  'recall.picked':
    'Nous avons choisi des créneaux libres proches de cette date ; un geste réserve celui qui vous convient.',
  'recall.choose': 'Choisissez un créneau qui vous convient ; un geste le réserve.',
  'recall.time': '{date} à {time}',
  'recall.timeWith': '{date} à {time} avec {doctor}',
  'recall.otherTimes': 'Autres créneaux',
  'recall.chooseTime': 'Choisir un créneau',
  'recall.callOrStop':
    'Ou appelez-nous au {phone}. Pour ne plus recevoir ces messages, désactivez les rappels dans Mes rendez-vous : {link}',
  'recall.familySubject': 'L’heure des visites de votre famille en {month}',
  'recall.familyIntro':
    'Ces visites sont prévues en {month}. Réservez-les ensemble en une visite familiale : un seul trajet, un seul paiement.',
  'recall.familyDue': '{treatment}, prévu le {due}',
  'recall.familyBook': 'Réserver une visite familiale',
  'recall.familyOne': 'Ou choisissez un créneau pour le soin {treatment} de {patient}',
  'sms.recall':
    '{clinic} : c’est l’heure de votre prochaine visite. Choisissez un créneau : {link} Répondez STOP pour ne plus recevoir de messages.',
  'sms.familyRecall':
    '{clinic} : {count} membres de votre famille ont une visite à prévoir. Réservez-les ensemble : {link} Répondez STOP pour ne plus recevoir de messages.',
  'sms.feeUnpaid':
    '{clinic} : veuillez régler les frais de {amount} de votre visite : {link} Répondez STOP pour ne plus recevoir de messages.',
  'sms.fee':
    '{clinic} : les frais de {amount} de votre visite {status, select, paid {sont réglés, merci} waived {ont été annulés} other {ont été prélevés sur votre carte enregistrée}}. Répondez STOP pour ne plus recevoir de messages.',
  'invite.subject': 'Votre propre compte chez {clinic}',
  'invite.intro':
    'Un membre de votre famille a conservé votre dossier dentaire de {clinic} dans son compte. Vous pouvez maintenant avoir le vôtre.',
  'invite.signUp':
    'Inscrivez-vous avec cette adresse e-mail et vérifiez-la : vos visites, à venir et passées, deviennent les vôtres, et vos messages vous parviennent.',
  'invite.ignore': 'Si vous ne savez pas pourquoi vous avez reçu ce message, vous pouvez l’ignorer.',
  'invite.link': 'S’inscrire',
  'sms.stopped':
    '{clinic} : vous ne recevrez plus de messages de notre part. Répondez START pour les recevoir à nouveau.',
  'sms.started': '{clinic} : les messages sont réactivés. Répondez STOP pour les arrêter.',
  'sms.visitChanged':
    '{clinic} : cette visite a changé après l’envoi du message (déplacée, annulée ou libérée), ce message n’agit donc plus sur elle. Voir vos réservations dans Mes rendez-vous.',
  'sms.notUnderstood':
    '{clinic} : répondez C pour confirmer votre visite, R pour être rappelé, X pour annuler, ou appelez le {phone}.',
  'sms.acted':
    '{clinic} : {outcome, select, cancelled {Votre visite est annulée. Une visite payée est remboursée en totalité ; la confirmation arrive par e-mail.} confirmed {Merci : la clinique sait que vous venez.} other {Merci : la clinique vous appellera au sujet de cette visite.}}',
  'sms.insideWindow':
    '{clinic} : un rendez-vous payé peut être annulé en ligne {hours, plural, =0 {jusqu’à son début} one {jusqu’à # heure avant son début} other {jusqu’à # heures avant son début}} ; pour annuler celui-ci, appelez la clinique au {phone}',
  'ics.summary': '{treatment} chez {clinic}',
  'ics.summaryPrivate': 'Rendez-vous chez {clinic}',
  'ics.description': '{treatment}, {date}, {time} ({zone}).',
  'ics.descriptionDoctor': '{treatment}, {date}, {time} ({zone}) avec {doctor}.',
  'ics.patient': 'Patient : {patient}.',
} as const satisfies Record<MessageKey, string>;
